//! Lowering (DESIGN §2, Faial §6 "Inference"): one `__global__` function's
//! clang AST to the imperative core. Values are kept symbolic while walking
//! (an environment from variables to expressions, SSA-like), so every index
//! comes out as an expression over thread ids, parameters, loop variables
//! and unknowns.

use super::clang::{kind as K, op, Handle, Node, Ty};
use super::Unsupported;
use crate::imp::{self, simplify, Array, Program, Stmt};
use crate::protocol::{builtin, Assumed, Cond, Expr, GroupRange, Loc, Mode, Op, Rel, Scope, Value};
use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, HashSet};

mod alike;
mod annotations;
mod asm;
mod call;
mod cub;
mod expr;
mod layout;
mod locks;
mod memory;
mod stmt;

pub(super) use call::unresolved_operator;
pub(crate) use stmt::compound_base;

use call::*;
use expr::*;
use layout::{type_parameter, Layouts};
use memory::*;
use stmt::*;

type R<T> = Result<T, Unsupported>;

/// Cells one access may cover before it is taken as its first cell only.
const MAX_WIDTH: u64 = 16;

/// The object a member function is inlined on: a structure variable, or
/// an element of an array (`s[i].hit(…)`), whose fields are that element.
#[derive(Clone, Debug)]
struct ThisObject {
    /// Its key in the environment (fields are `var.field`).
    var: String,
    /// Its source path (`a`, `p.acc`), for the arrays and parameters its
    /// fields name.
    path: String,
    /// It is (part of) a parameter of the kernel passed by value.
    param: bool,
    /// The element it is, when it lives in memory.
    mem: Option<Ptr>,
}

impl ThisObject {
    fn variable(var: String, path: String, param: bool) -> ThisObject {
        ThisObject {
            var,
            path,
            param,
            mem: None,
        }
    }
    fn in_memory(p: Ptr) -> ThisObject {
        ThisObject {
            var: String::new(),
            path: String::new(),
            param: false,
            mem: Some(p),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(Expr),
    Ptr(Ptr),
    /// Read from memory, returned by an unknown call, or not an integer.
    Unknown,
    /// Not computed, but one value for every thread of the grid: a
    /// read-only scalar that is not an integer (`__constant__ float
    /// cutoff`), and pure math on such values and parameters
    /// (`ceil(cutoff)`). Used with integers, it becomes a parameter.
    Uniform,
    /// Read from an array at an address every thread of the block shares
    /// (at `Loc`): the same in the block if the kernel never writes the
    /// array (`Kernel::block_uniform`), or no thread writes it while it is
    /// read (`Kernel::uniform_reads`). Used, it becomes a local.
    Stored(String, Loc),
    /// What a collective of a warp or a tile hands each member (a
    /// reduction, a butterfly of shuffles, a broadcast from one lane): one
    /// value for the members of one group at one execution of the call,
    /// kept as a cell only that group and execution share (see
    /// `Lower::collective`), so that two members storing it store equal
    /// values. In arithmetic it is unknown.
    Collective(Value),
    /// A floating-point constant, by the bits of its value as a `double`:
    /// one value for every thread, which a store records exactly, so that
    /// two threads storing `0.0f` store equal values. In arithmetic it is
    /// [`Val::Uniform`].
    Float(u64),
    /// A function, as a pointer to it or an argument for a parameter a
    /// template calls (`reduce(fmaxf, v)`, `constexpr op_t op =
    /// pick<T>()`): its declaration and, for a function template, the
    /// values its name wrote for the value parameters (`dequantize<T,
    /// 4>`), by key, taken where the name was written. Calls through it
    /// call the function.
    Func {
        decl: Handle,
        values: Vec<(String, Val)>,
    },
}

/// What `Lower::choice` evaluated: the live operand alone, or both under
/// the condition.
enum Chosen<T> {
    One(T),
    Both(Cond, T, T),
}

#[derive(Clone, Debug, PartialEq)]
enum LVal {
    Var(String),
    Mem(Ptr),
    Unknown,
}

pub struct Lower {
    out: Vec<Stmt>,
    env: HashMap<String, Val>,
    /// Cells this thread wrote in the current barrier interval, with the
    /// value written (the read-index pair of Faial's Fig. 16).
    facts: Vec<(Target, Vec<Expr>, Expr)>,
    prog: Program,
    fresh: HashMap<String, u32>,
    globals: HashMap<String, Val>,
    /// The fields of kernel parameters passed by value, as first read:
    /// out of reach of branch merges, as `globals` are.
    inputs: HashMap<String, Val>,
    /// Structure variables that hold a kernel parameter passed by value,
    /// or a nested structure of one, unchanged as a whole (a copy, or a
    /// callee's parameter bound to it), by key, with the parameter's source
    /// path (`o`, `o.in`): their fields not read yet are the parameter's.
    param_records: HashMap<String, String>,
    stack: Vec<String>,
    /// The array each declaration of memory names, by declaration (see
    /// `Lower::array_of`).
    array_names: HashMap<String, String>,
    /// The kernel template's value parameters the instance fixes, by name:
    /// what sizes in types spelled in the template's terms stand for.
    template_constants: HashMap<String, i64>,
    /// The text of the kernel's file (see `with_source`).
    source: Option<std::sync::Arc<Source>>,
    /// Read-only integer tables whose every cell is known: their
    /// initializers (see `Lower::table_value`).
    tables: HashMap<String, Vec<i64>>,
    /// `__constant__` arrays of pointers the host fills (`cudaMemcpyToSymbol`
    /// of one buffer per warp): each cell a buffer of its own.
    pointer_tables: HashSet<String>,
    /// How many arguments an instantiation gives each parameter pack of
    /// the kernel's template, by name: `sizeof...(Ts)`.
    pack_sizes: HashMap<String, i64>,
    /// The objects of the member functions being inlined, innermost last.
    this: Vec<ThisObject>,
    returns: Vec<Vec<(Cond, Val)>>,
    path: Vec<Cond>,
    aliases: HashMap<String, String>,
    /// The source name of each local declared so far, by key: what an
    /// unknown standing for its value is named after.
    spellings: HashMap<String, String>,
    loop_vars: Vec<String>,
    /// For each enclosing loop or `switch`, innermost last, what a `break`
    /// leaves (`Lower::exit_barrier`).
    break_targets: Vec<BreakTarget>,
    /// Counted loops (by position) lowered as loops of unknown trip count,
    /// where a `break` out of them leaves a barrier behind: this lowering's
    /// and those a `break` asked for in it.
    uncounted: HashSet<Loc>,
    wants_uncounted: HashSet<Loc>,
    /// `__syncwarp` orders the whole block when a block is one warp.
    warp_is_block: bool,
    depth: usize,
    /// The file being analysed: code from other files is reported at the
    /// place in this file that reaches it (`site`).
    main: String,
    site: Option<Loc>,
    /// `sizeof` of a template parameter's type, by type: one value the
    /// whole kernel shares.
    sizes: HashMap<String, String>,
    /// Locals made of [`Val::Stored`] values, with the array read and where.
    stored: Vec<(String, String, Loc)>,
    /// By loop being lowered, innermost last: the state at each `continue`
    /// of its body, whose values flow to the next iteration.
    continues: Vec<Vec<HashMap<String, Val>>>,
    /// Where [`Val::Stored`] reads have addresses over loop variables.
    loop_reads: HashSet<Loc>,
    /// Reads (`Val::Stored`) of memory of an unsigned type: the local each
    /// becomes is never negative.
    unsigned_reads: HashSet<Loc>,
    /// Where [`Val::Stored`] reads have addresses over values read the same
    /// way (`degrees[seed]` with `seed = order[i]`), with those locals: one
    /// value for the block only if those are (`UniformRead::deps`).
    read_deps: HashMap<Loc, Vec<String>>,
    /// The last access, when it read a whole cell of an array other
    /// threads can see: where, the array, the cell and its bytes.
    last_cell: Option<(Loc, String, Vec<Expr>, u64)>,
    /// The value the next write stores when it copies such a cell, which
    /// holds the same for every thread if the kernel never writes the
    /// array (decided once the kernel is lowered).
    copied_cell: Option<Value>,
    /// Enclosing loop variables whose loops start, step and end alike in
    /// every thread of a block.
    uniform_loops: Vec<String>,
    /// Loop variables that only take powers of two (or 0): the loop starts
    /// at one and multiplies or divides by one (`stride >>= 1` from
    /// `size / 2`), so masks by them are remainders.
    powers: HashSet<String>,
    /// This lowering takes every integer parameter for a power of two (see
    /// [`crate::protocol::Kernel::variants`]), and the ones a mask or a
    /// loop took so.
    pow2_params: bool,
    powers_assumed: BTreeSet<String>,
    /// Some mask or doubling loop would read otherwise if a parameter were
    /// a power of two: worth a lowering with `pow2_params`.
    power_candidates: bool,
    /// This lowering takes the block for one-dimensional (a variant).
    flat_block: bool,
    /// Launch dimensions (and the ids along axes of size 1) and parameters
    /// by name, and arguments by position, that every launch agrees on:
    /// known while lowering, loops over them are counted or unrolled (`for
    /// (d = blockDim.x; d > 0; d >>= 1)` halves from 512).
    launch: Vec<(String, i64)>,
    launch_args: Vec<(usize, i64)>,
    /// The block axes (y, z: bits 1 and 2) along which the source names
    /// `threadIdx` or `blockDim`.
    named_axes: Cell<u8>,
    /// Pointers a loop only swaps among arrays and never moves within one:
    /// at the top of an iteration they keep their places
    /// (`Lower::pointers_across_iterations` checks that they do).
    unmoved: HashSet<String>,
    /// Variables a loop lowered symbolically made unknown at its top
    /// (`Lower::forget`); unrolled loops forget nothing.
    forgotten: HashSet<String>,
    /// Pointers stored in `__shared__` memory or a thread's own array, by
    /// the array they are kept in, and the arrays read back from there
    /// (see `kept_pointer`, `private_pointer`).
    kept_pointers: Vec<(String, Ptr)>,
    pointer_reads: Vec<(String, Target)>,
    /// The thread's own arrays that were stored something other than a
    /// pointer into one array or null: a pointer read back from one may
    /// point anywhere.
    opaque_private: HashSet<String>,
    /// The arrays the kernel's pointer parameters (and the pointer fields
    /// of its structure parameters) point to, with the variable that says
    /// whether the pointer is set, once a null test asked (see
    /// `Lower::null_test`).
    param_arrays: HashMap<String, Option<String>>,
    /// Every atomic, by array: the way it moves its cell (+1 or -1) when it
    /// adds or subtracts a constant of at least 1.
    atomics: Vec<(String, Vec<Expr>, Option<i8>)>,
    /// Locals returned by such atomics on a cell shared by the block or
    /// the grid, with the array (see [`crate::protocol::Kernel::tickets`]).
    tickets: Vec<(crate::protocol::Ticket, String, Vec<Expr>)>,
    /// Cooperative groups queried so far whose ranks are not the block's
    /// built-in values (a coalesced group's, by object) or are (a tile's,
    /// by type): what a leader's atomic is matched against.
    groups: HashMap<String, GroupRange>,
    /// Masks of coalesced groups (see [`Lower::active_mask`]), by local.
    masks: HashMap<String, GroupRange>,
    /// Locals holding the lane of a group's leader (`__ffs(mask) - 1`).
    leaders: HashMap<String, GroupRange>,
    /// Tickets a group's leader took for its group (`atomicAdd(c,
    /// g.size())` under `g.thread_rank() == 0`): the local and the group.
    group_leads: Vec<(String, GroupRange)>,
    /// The group a variable of the generic type `thread_group` holds
    /// (`thread_group g = this_thread_block();`, a `thread_group`
    /// parameter given a tile), by variable: the type of the group it was
    /// made from, whose ranks, sizes and barrier are known.
    group_types: HashMap<String, String>,
    /// Per function being inlined, for each `return` of a structure, the
    /// variable holding it (`return sub;`), if it is one.
    record_returns: Vec<Vec<Option<String>>>,
    /// The call whose result is assigned through (`cell(p, i) = v`,
    /// `view[i] += v` with `T &operator[]`): its function's `return`s give
    /// the place they refer to, not its value.
    lvalue_call: Option<(Loc, u32)>,
    /// Per function being inlined: for one whose result is a place, the
    /// places its `return`s refer to, by path; `None` for the others.
    place_returns: Vec<Option<Vec<(Cond, LVal)>>>,
    /// The place the call in `lvalue_call` returned, once inlined.
    returned_place: Option<((Loc, u32), LVal)>,
    /// The call inlined last, when its one return names a structure
    /// variable: the call's place and that variable, which a copy of the
    /// call's result copies from.
    returned_record: Option<(Loc, String)>,
    /// Values one thread of every block publishes in a `__shared__` cell
    /// for the others (see `Lower::publish`), by array; `None` once two
    /// writes disagree.
    published: HashMap<String, Option<Published>>,
    /// The arrays whose published value a read took.
    publish_reads: HashSet<String>,
    /// Arrays whose reads take no published value: a write elsewhere in
    /// the kernel, found once it was lowered, may change the cell.
    unpublished: HashSet<String>,
    /// Arrays whose reads took a published value that writes lowered
    /// later contradict: lowered again without it.
    republish: HashSet<String>,
    /// The loop each ticket was taken in (its variable), `None` outside
    /// loops.
    ticket_loops: HashMap<String, Option<String>>,
    /// Values over a ticket taken in the same trip of a loop that thread 0
    /// of every block publishes in a `__shared__` cell, by array (see
    /// `Lower::publish_in_loop`).
    loop_published: HashMap<String, LoopPublished>,
    /// The cell of such an array and the value writes store there as a
    /// publication; `None` once two publications differ in either.
    loop_publications: HashMap<String, Option<Publication>>,
    /// The local standing for each published ticket where it is read.
    read_tickets: HashMap<String, String>,
    /// Reads of published tickets' values, with the array read.
    ticket_reads: Vec<(crate::protocol::TicketRead, String, String)>,
    /// The block's ticket, when the kernel takes one (see
    /// [`crate::protocol::Ticket::block`]); `conflict` when it takes more.
    block_ticket: Option<BlockTicket>,
    ticket_conflict: bool,
    /// The block varies along an axis the ticket's conditions leave open.
    ticket_axes_open: bool,
    /// Settings of this lowering from an earlier one: no block tickets, or
    /// the ticket to order global accesses by (see `Lower::ticket_phase`).
    no_block_tickets: bool,
    order_by_ticket: Option<BlockTicket>,
    /// Where the global accesses lowered so far stand to the block's
    /// ticket, and the local telling it.
    ticket_taken: bool,
    after_ticket: bool,
    /// Accesses of memory lowered so far, and their count when this thread
    /// last arrived at a block-scoped `cuda::barrier` without waiting.
    accesses_made: usize,
    arrived_after: Option<usize>,
    phase_var: Option<String>,
    /// Block barriers lowered so far, with the conditions around each one
    /// outside loops (`None` inside one).
    sync_paths: Vec<Option<Vec<Cond>>>,
    /// A global access was lowered since the last `__threadfence()`.
    unfenced: bool,
    /// The spin locks this thread takes and gives back.
    locks: locks::Locks,
    /// Bytes of one cell of a parameter's array, where accesses view it in
    /// elements narrower than its type (`float *` over a `float2 *`
    /// parameter): the narrowest such view, so that each element is a cell
    /// of its own and neighbours do not share one.
    cell_bytes: HashMap<String, u64>,
    /// What the accesses lowered so far ask of `cell_bytes`.
    narrow_views: HashMap<String, u64>,
    /// The widest element each array was accessed in, in bytes
    /// (`u64::MAX` once an access had more than one index).
    widest_views: HashMap<String, u64>,
    /// The most indices an access of each array had.
    array_dims: HashMap<String, usize>,
    /// Arrays whose cells are viewed in parts while their fields are
    /// dimensions, with those dimensions: an access of a part has every
    /// field past the cell unknown.
    padded: HashMap<String, usize>,
    /// For each array whose cells have no known size (an element type the
    /// analysis leaves open, as a template's `T`), the types pointers to it
    /// were viewed as: two of them count elements of different sizes in one
    /// index, which nothing scales.
    /// Each view's spelling and, where the instantiation gives it, its
    /// size.
    open_views: HashMap<String, std::collections::BTreeMap<String, (String, Option<u64>)>>,
    /// Whether some function object of the program with a call operator of
    /// so many parameters may hold memory, by that number (see
    /// `Lower::open_functor_may_hold_pointers`).
    open_functors: HashMap<usize, bool>,
    /// How many copies of the current statement the unrolled loops around
    /// it make.
    unrolled_copies: u64,
    /// The thread's own arrays every thread of a block may fill alike,
    /// and the reads of them (see `alike`).
    alike: alike::AlikeArrays,
    /// Collectives lowered so far: each execution of one in the lowered
    /// program (after inlining and unrolling) is a cell of its own.
    collectives: u32,
    /// Sizes of the types an instantiation gives a template's parameters.
    layouts: Layouts,
    /// The kernel's parameters' types in the instantiation lowered, by name.
    param_types: HashMap<String, Ty>,
    /// How many parameters the instantiation has: with the template's,
    /// the size of its parameter pack.
    instance_arity: Option<usize>,
}

/// The name of the pseudo-arrays whose cells stand for what collectives
/// return (`Lower::collective`), before each one's number.
const COLLECTIVE: &str = "__collective";

/// How deep statements and expressions may nest before lowering gives up
/// (the walk is recursive).
const MAX_DEPTH: usize = 4000;

/// Times a kernel is lowered again: without published values that later
/// writes contradicted or block tickets that are not, or with global
/// accesses ordered by the block's ticket.
const MAX_RELOWER: usize = 4;

/// Where one thread of every block takes the block's ticket.
#[derive(Clone, Debug, PartialEq)]
struct BlockTicket {
    local: String,
    /// The thread ids its conditions fix to 0.
    fixed: [bool; 3],
    /// No global access between the last `__threadfence()` and it.
    fenced: bool,
    /// Its conditions on the thread (`tid == 0`).
    select: Vec<Cond>,
    /// The block barriers lowered up to the last one before it that every
    /// thread reaching it passes.
    syncs_before: usize,
}

/// A file's text and its object-like macros (`#define BLOCK 256`).
pub struct Source {
    pub text: String,
    pub macros: HashMap<String, String>,
}

/// A value one thread of every block stores in a `__shared__` cell, the
/// same in every block up to the block's id (`if (tid == 0) base =
/// blockIdx.x * n;`), for the others to read after a barrier.
#[derive(Clone, Debug, PartialEq)]
struct Published {
    index: Vec<Expr>,
    value: Expr,
    /// A pointer published (`base = out + blockIdx.x * 64`): what reads
    /// take, where `value` is the address its stores record.
    pointer: Option<Ptr>,
    /// The conditions on the block around the write: a read sees the
    /// value only under them.
    conds: Vec<Cond>,
}

/// What a `break` leaves ([`Lower::break_targets`]).
#[derive(Clone, Debug, PartialEq)]
enum BreakTarget {
    /// A `switch`, or a loop whose copies are unrolled.
    Other,
    /// A loop counted by a variable, at this position, with the variable
    /// and its last value when it counts up by one.
    Counted(Loc, String, Option<Expr>),
    /// A loop of unknown trip count, with the condition that the current
    /// trip is not its last (`iter != iterations - 1`).
    Uncounted(Cond),
}

/// See [`Lower::loop_publications`].
#[derive(Clone, PartialEq)]
struct Publication {
    cell: Vec<Expr>,
    value: Expr,
}

/// See [`Lower::loop_published`].
#[derive(Clone)]
struct LoopPublished {
    index: Vec<Expr>,
    value: Expr,
    /// The ticket `value` is over.
    ticket: String,
    /// The loop whose trip took and published it.
    loop_var: String,
    /// The conditions on the block around the write.
    conds: Vec<Cond>,
}

fn loc_of(n: &Node) -> Loc {
    let p = n.pos();
    // An implicit node (the member reference of `(float)h`'s conversion
    // operator) has no place of its own: its operand's is the access's.
    if p.line == 0 {
        if let Some(operand) = exprs(n).first() {
            return loc_of(operand);
        }
    }
    Loc::new(p.line, p.column)
}

fn unsupported<T>(n: &Node, reason: impl Into<String>) -> R<T> {
    let pos = n.pos();
    Err(Unsupported {
        reason: reason.into(),
        loc: Loc::new(pos.line, pos.column),
        file: Some(pos.file).filter(|f| !f.is_empty()),
    })
}

/// A declaration's identity: its hash and where it is, so that two
/// declarations never share a key.
fn key(n: &Node) -> String {
    format!("d{}@{}", n.id(), n.canonical_offset())
}

/// The conditions of GPUVerify's `__axiom(c);` at file scope in the unit's
/// own files (the prelude makes each an enumerator sized by `c`).
fn file_axioms<'a>(n: &Node<'a>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    for c in n.children() {
        let k = c.kind();
        if k == K::NAMESPACE || k == K::LINKAGE_SPEC {
            out.extend(file_axioms(&c));
        } else if k == K::ENUM && !c.pos().file.starts_with(crate::cuda::prelude::DIR) {
            for e in c.children() {
                if e.kind() != K::ENUM_CONSTANT || !e.spelling().starts_with("__drfscan_axiom_") {
                    continue;
                }
                let size = e
                    .children()
                    .into_iter()
                    .find_map(|x| find_kind(x, K::UNARY_EXPR));
                out.extend(size.and_then(|s| exprs(&s).first().copied()));
            }
        }
    }
    out
}

/// `n` or its first descendant of kind `kind`, depth first.
pub(super) fn find_kind(n: Node, kind: std::os::raw::c_int) -> Option<Node> {
    if n.kind() == kind {
        return Some(n);
    }
    n.children().into_iter().find_map(|c| find_kind(c, kind))
}

/// Skips parentheses, implicit conversions and casts.
pub(super) fn strip<'a>(n: Node<'a>) -> Node<'a> {
    let mut n = n;
    loop {
        let k = n.kind();
        if k == K::PAREN
            || k == K::UNEXPOSED
            || k == K::C_CAST
            || k == K::STATIC_CAST
            || k == K::FUNCTIONAL_CAST
            || k == K::REINTERPRET_CAST
            || k == K::CONST_CAST
            || (k == K::CALL && implicit_copy(&n))
        {
            let ch: Vec<Node> = n
                .children()
                .into_iter()
                .filter(|c| c.is_expression())
                .collect();
            if ch.len() == 1 {
                n = ch[0];
                continue;
            }
        }
        return n;
    }
}

/// A copy or move of a class value by its implicit constructor, which
/// libclang gives no callee: before C++17, every `dim3` passed by value
/// (`k<<<1, 64>>>` included) is such a copy of a temporary.
fn implicit_copy(n: &Node) -> bool {
    if n.referenced().is_some() || n.num_args() != 1 || !n.ty().is_record() {
        return false;
    }
    match exprs(n).as_slice() {
        [arg] => arg.ty().canonical().spelling() == n.ty().canonical().spelling(),
        _ => false,
    }
}

fn exprs<'a>(n: &Node<'a>) -> Vec<Node<'a>> {
    n.children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect()
}

fn cond_vars(c: &Cond) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    c.free_vars(&mut s);
    s
}

impl Lower {
    /// `site`: where in `main` the kernel is launched, when the kernel
    /// itself is in another file.
    pub fn new(name: &str, warp_is_block: bool, main: &str, site: Option<Loc>) -> Lower {
        Lower {
            out: Vec::new(),
            env: HashMap::new(),
            facts: Vec::new(),
            prog: Program {
                name: name.to_string(),
                ..Default::default()
            },
            fresh: HashMap::new(),
            globals: HashMap::new(),
            inputs: HashMap::new(),
            param_records: HashMap::new(),
            stack: Vec::new(),
            array_names: HashMap::new(),
            spellings: HashMap::new(),
            template_constants: HashMap::new(),
            source: None,
            tables: HashMap::new(),
            pointer_tables: HashSet::new(),
            pack_sizes: HashMap::new(),
            this: Vec::new(),
            returns: Vec::new(),
            path: Vec::new(),
            aliases: HashMap::new(),
            loop_vars: Vec::new(),
            break_targets: Vec::new(),
            uncounted: HashSet::new(),
            wants_uncounted: HashSet::new(),
            warp_is_block,
            depth: 0,
            main: main.to_string(),
            site,
            sizes: HashMap::new(),
            stored: Vec::new(),
            continues: Vec::new(),
            loop_reads: HashSet::new(),
            unsigned_reads: HashSet::new(),
            read_deps: HashMap::new(),
            uniform_loops: Vec::new(),
            powers: HashSet::new(),
            pow2_params: false,
            powers_assumed: BTreeSet::new(),
            power_candidates: false,
            flat_block: false,
            launch: Vec::new(),
            launch_args: Vec::new(),
            named_axes: Cell::new(0),
            last_cell: None,
            copied_cell: None,
            unmoved: HashSet::new(),
            forgotten: HashSet::new(),
            kept_pointers: Vec::new(),
            opaque_private: HashSet::new(),
            pointer_reads: Vec::new(),
            param_arrays: HashMap::new(),
            atomics: Vec::new(),
            tickets: Vec::new(),
            groups: HashMap::new(),
            masks: HashMap::new(),
            leaders: HashMap::new(),
            group_leads: Vec::new(),
            group_types: HashMap::new(),
            record_returns: Vec::new(),
            lvalue_call: None,
            place_returns: Vec::new(),
            returned_place: None,
            returned_record: None,
            published: HashMap::new(),
            publish_reads: HashSet::new(),
            unpublished: HashSet::new(),
            republish: HashSet::new(),
            ticket_loops: HashMap::new(),
            loop_published: HashMap::new(),
            loop_publications: HashMap::new(),
            read_tickets: HashMap::new(),
            ticket_reads: Vec::new(),
            block_ticket: None,
            ticket_conflict: false,
            ticket_axes_open: false,
            no_block_tickets: false,
            order_by_ticket: None,
            ticket_taken: false,
            after_ticket: false,
            accesses_made: 0,
            arrived_after: None,
            phase_var: None,
            sync_paths: Vec::new(),
            unfenced: false,
            locks: locks::Locks::default(),
            cell_bytes: HashMap::new(),
            narrow_views: HashMap::new(),
            widest_views: HashMap::new(),
            array_dims: HashMap::new(),
            padded: HashMap::new(),
            open_views: HashMap::new(),
            open_functors: HashMap::new(),
            unrolled_copies: 1,
            alike: alike::AlikeArrays::default(),
            collectives: 0,
            layouts: Layouts::default(),
            param_types: HashMap::new(),
            instance_arity: None,
        }
    }

    /// This lowering with the text of the kernel's file, where its
    /// `__launch_bounds__` is read.
    pub fn with_source(mut self, source: std::sync::Arc<Source>) -> Lower {
        self.source = Some(source);
        self
    }

    /// The maximum block size of the kernel's `__launch_bounds__`, which
    /// libclang shows as an attribute without its arguments (and without
    /// tokens, when a macro starts the declaration): read from the file's
    /// text between the declaration's start and its body.
    fn launch_bound(&self, f: &Node, body: &Node) -> Option<i64> {
        if !f.children().iter().any(|c| c.kind() == K::UNEXPOSED_ATTR) {
            return None;
        }
        let source = self.source.as_ref()?;
        let head = source
            .text
            .get(f.byte_range().0 as usize..body.offset() as usize)?;
        let value = |name: &str| -> Option<i64> {
            if let Some(v) = self.template_constants.get(name) {
                return Some(*v);
            }
            crate::cuda::launch::text_value(source.macros.get(name)?, &HashMap::new())
        };
        crate::cuda::launch::launch_bound(&crate::cuda::launch::text_tokens(head), &value)
    }

    /// This lowering of one instantiation of a kernel template, whose type
    /// arguments (by position; `None` for values) give sizes to the types
    /// the template leaves dependent, and whose parameters' types
    /// (`Acc<float>` where the template reads `Acc<T>`) give the types of
    /// fields it leaves dependent.
    pub fn with_instance_types(
        mut self,
        (args, params, arity): (Vec<Option<Ty>>, Vec<(String, Ty)>, Option<usize>),
    ) -> Lower {
        self.layouts = Layouts::new(args);
        self.param_types = params.into_iter().collect();
        self.instance_arity = arity;
        self
    }

    /// Bytes of one cell of an array or pointer of type `ty` (0 when not
    /// known).
    fn cell_size(&self, ty: Ty) -> u64 {
        self.layouts.size_of(cell_type(ty)).unwrap_or(0)
    }

    /// This lowering with the launch's known values: `named` launch
    /// dimensions and parameters (`blockDim.x` = 256, `n` = 1024), and the
    /// arguments at the positions of `args`.
    pub fn with_launch(mut self, named: Vec<(String, i64)>, args: Vec<(usize, i64)>) -> Lower {
        self.launch = named;
        self.launch_args = args;
        self
    }

    /// Lowers a kernel (a function definition or function template; for a
    /// template, `template_args` are an instantiation's arguments, and value
    /// parameters without one are thread-global parameters).
    pub fn kernel(self, f: &Node, template_args: &[Result<i64, String>]) -> R<Program> {
        let name = self.prog.name.clone();
        let mut first = self;
        let mut lowered = first.lower_kernel(f, template_args);
        // A ticket thread 0 along x takes is not the block's when the block
        // may have rows: it is in a one-dimensional block.
        let mut ticket_needs_flat = false;
        // Each round takes away a published value or a block ticket, or
        // orders accesses by the ticket once.
        for _ in 0..MAX_RELOWER {
            let settle = first.settled_ticket();
            let breaks = !first.wants_uncounted.is_subset(&first.uncounted);
            if first.republish.is_empty() && settle.is_none() && !breaks {
                break;
            }
            ticket_needs_flat |= first.ticket_axes_open;
            let mut next = first.relowering(&name);
            next.uncounted.extend(first.wants_uncounted.iter().copied());
            next.unpublished.extend(first.republish.iter().cloned());
            match settle {
                Some(Some(order)) => next.order_by_ticket = Some(order),
                Some(None) => {
                    next.no_block_tickets = true;
                    next.order_by_ticket = None;
                }
                None => {}
            }
            first = next;
            lowered = first.lower_kernel(f, template_args);
        }
        if !first.republish.is_empty() || first.settled_ticket().is_some() {
            return unsupported(
                f,
                "values published in `__shared__` memory that the kernel overwrites",
            );
        }
        let open = |v: &std::collections::BTreeMap<String, (String, Option<u64>)>| {
            v.len() > 1 && v.values().any(|(_, size)| size.is_none())
        };
        if let Some((array, views)) = first.open_views.iter().find(|(_, v)| open(v)) {
            let views: Vec<&str> = views.values().map(|(v, _)| v.as_str()).collect();
            return unsupported(
                f,
                format!(
                    "`{array}` is viewed as elements of types of different sizes ({}), one of them a template parameter left open",
                    views.join(", ")
                ),
            );
        }
        // An array read in parts of its cells: lowered again in cells of
        // the narrowest part, where the wider accesses cover several, as
        // long as each is few enough cells to be one access per cell.
        let widest = &first.widest_views;
        let mut parts: HashMap<String, u64> = first
            .narrow_views
            .iter()
            .filter(|(a, part)| widest.get(*a).is_none_or(|w| w / **part <= MAX_WIDTH))
            .map(|(a, part)| (a.clone(), *part))
            .collect();
        // An array of untyped cells (`void *`) viewed as elements of
        // known sizes: counted in cells of their common divisor, so that
        // an access counted in bytes (inline PTX's `st.global.v4.b32`
        // through a `void *`) covers the cells its bytes do.
        for (array, views) in &first.open_views {
            let sizes: Vec<u64> = views.values().filter_map(|(_, size)| *size).collect();
            if !sizes.is_empty() && sizes.len() == views.len() {
                let common = sizes.iter().fold(0, |g, &s| crate::protocol::gcd(g, s));
                parts.entry(array.clone()).or_insert(common);
            }
        }
        // Else, where fields are dimensions, a part is any field of its
        // cell.
        let padded: HashMap<String, usize> = first
            .narrow_views
            .keys()
            .filter(|a| !parts.contains_key(*a))
            .filter_map(|a| Some((a.clone(), *first.array_dims.get(a)?)))
            .filter(|(_, dims)| *dims > 1)
            .collect();
        // What every lowering from here on starts from.
        let settled = || {
            let mut next = first.relowering(&name);
            next.cell_bytes = parts.clone();
            next.padded = padded.clone();
            next
        };
        let lowered = if parts.is_empty() && padded.is_empty() {
            lowered
        } else {
            settled().lower_kernel(f, template_args)
        };
        let mut variants = Vec::new();
        if lowered.is_ok() && first.power_candidates {
            let mut powers = settled();
            powers.pow2_params = true;
            let p = powers.lower_kernel(f, template_args).ok();
            let params: Vec<String> = powers.powers_assumed.into_iter().collect();
            if let Some(mut p) = p.filter(|_| !params.is_empty()) {
                p.locals.sort();
                // A power of two is at least 1.
                for v in &params {
                    p.assumes
                        .push(Cond::cmp(Rel::Ge, Expr::var(v), Expr::Int(1)));
                }
                variants.push((Assumed::PowersOfTwo(params), Box::new(p)));
            }
        }
        let unnamed_axes: Vec<String> = (1..3)
            .filter(|d| first.named_axes.get() & (1 << d) == 0)
            .map(|d| builtin::BLOCK_DIM[d].to_string())
            .collect();
        let written_flat = unnamed_axes.len() == 2;
        if lowered.is_ok() && ticket_needs_flat && written_flat && !first.flat_block {
            let mut flat = Lower::new(&name, first.warp_is_block, &first.main, first.site)
                .with_launch(first.launch.clone(), first.launch_args.clone());
            flat.layouts = first.layouts.clone();
            flat.flat_block = true;
            if let Ok(mut p) = flat.kernel(f, template_args) {
                p.variants.clear();
                variants.push((Assumed::FlatBlock, Box::new(p)));
            }
        }
        // Unknowns are made while walking sets of variables; in name order,
        // the protocol and its content hash are the same in every run.
        lowered.map(|mut p| {
            p.locals.sort();
            p.variants = variants;
            p.unnamed_axes = unnamed_axes;
            p
        })
    }

    /// A fresh lowering of the kernel `name` with what this one settled:
    /// the values not to publish and how to take the block's ticket.
    fn relowering(&self, name: &str) -> Lower {
        let mut next = Lower::new(name, self.warp_is_block, &self.main, self.site);
        next.unpublished = self.unpublished.clone();
        next.no_block_tickets = self.no_block_tickets;
        next.order_by_ticket = self.order_by_ticket.clone();
        next.flat_block = self.flat_block;
        next.launch = self.launch.clone();
        next.launch_args = self.launch_args.clone();
        next.layouts = self.layouts.clone();
        next.uncounted = self.uncounted.clone();
        next
    }

    fn lower_kernel(&mut self, f: &Node, template_args: &[Result<i64, String>]) -> R<Program> {
        self.stack.push(key(f));
        let mut body = None;
        let mut template_index = 0;
        // Type parameters and the types an instantiation gives them.
        let mut type_args: HashMap<String, Option<String>> = HashMap::new();
        for c in f.children() {
            let k = c.kind();
            let template_param = k == K::TEMPLATE_TYPE_PARAM
                || k == K::TEMPLATE_TEMPLATE_PARAM
                || k == K::NON_TYPE_TEMPLATE_PARAM;
            if template_param && c.tokens().iter().any(|(t, _)| t == "...") {
                // A pack: libclang gives it as one argument. Its size is
                // what the instantiation's parameters add to the
                // template's others, when a parameter pack of it takes them
                // (`Ts... xs`).
                let params: Vec<Node> = f
                    .children()
                    .into_iter()
                    .filter(|p| p.kind() == K::PARM)
                    .collect();
                let packs = params
                    .iter()
                    .filter(|p| p.tokens().iter().any(|(t, _)| t == "..."))
                    .count();
                if let (Some(arity), 1) = (self.instance_arity, packs) {
                    let size = arity as i64 + 1 - params.len() as i64;
                    if size >= 0 {
                        self.pack_sizes.insert(c.spelling(), size);
                    }
                }
                template_index += 1;
                continue;
            }
            if k == K::TEMPLATE_TYPE_PARAM || k == K::TEMPLATE_TEMPLATE_PARAM {
                let arg = match template_args.get(template_index) {
                    Some(Err(ty)) => Some(ty.clone()),
                    _ => None,
                };
                type_args.insert(c.spelling(), arg);
                template_index += 1;
            } else if k == K::NON_TYPE_TEMPLATE_PARAM {
                self.prog.template_args.resize(template_index, None);
                let v = match template_args.get(template_index) {
                    Some(Ok(v)) => {
                        self.template_constants.insert(c.spelling(), *v);
                        self.prog.template_args.push(None);
                        Expr::Int(*v)
                    }
                    _ => {
                        let name = self.param(&c.spelling());
                        self.prog.open_template_params.push(name.clone());
                        self.prog.template_args.push(Some(name.clone()));
                        Expr::Var(name)
                    }
                };
                template_index += 1;
                self.env.insert(key(&c), Val::Int(v));
            } else if k == K::PARM {
                let name = c.spelling();
                let ty = c.ty();
                let position = self.prog.args.len();
                self.prog.args.push(None);
                if ty.is_pointer() || ty.is_array() {
                    let name = if name.is_empty() {
                        self.name("arg")
                    } else {
                        name
                    };
                    self.add_array(&name, Scope::Global, loc_of(&c));
                    self.param_arrays.insert(name.clone(), None);
                    let p = self.array_cells(name, vec![], self.cell_size(ty));
                    self.env.insert(key(&c), Val::Ptr(p));
                } else if ty.is_integral() && !name.is_empty() {
                    // A value every launch passes is that value in every
                    // index, as the solver would have it anyway.
                    let known = self
                        .launch_args
                        .iter()
                        .find(|(i, _)| *i == position)
                        .map(|(_, v)| *v)
                        .or_else(|| {
                            self.launch
                                .iter()
                                .find(|(n, _)| *n == name)
                                .map(|(_, v)| *v)
                        });
                    let name = self.param(&name);
                    self.prog.args[position] = Some(name.clone());
                    self.prog.assumes.extend(domain(&c, &name));
                    if let Some((lo, hi)) = ty.word_range() {
                        self.prog.word_ranges.push((name.clone(), lo, hi));
                    }
                    let value = known.map_or_else(|| Expr::Var(name), Expr::Int);
                    self.env.insert(key(&c), Val::Int(value));
                } else if let (true, Some(arg)) = (
                    ty.is_dependent(),
                    type_args.get(&plain_type(&ty.spelling())),
                ) {
                    // A value of a type parameter (`index_t n`): one value
                    // for every thread, an integer parameter unless the
                    // instantiation makes it another type. (A floating
                    // one taken for an integer would still compare and
                    // index as its rounding does, but not both ways at
                    // once: a rare loss.)
                    let integer = arg.as_deref().is_none_or(is_integer_type);
                    let v = match (integer, name.is_empty()) {
                        (true, false) => {
                            let name = self.param(&name);
                            self.prog.args[position] = Some(name.clone());
                            Val::Int(Expr::Var(name))
                        }
                        _ => Val::Uniform,
                    };
                    self.env.insert(key(&c), v);
                } else if ty.is_floating() {
                    // One value for every thread: threads storing it store
                    // equal values, conditions on it are uniform.
                    self.env.insert(key(&c), Val::Uniform);
                } else {
                    if ty.canonical().is_record() && !name.is_empty() {
                        self.param_records.insert(key(&c), name);
                    }
                    self.env.insert(key(&c), Val::Unknown);
                }
            } else if k == K::COMPOUND {
                body = Some(c);
            }
        }
        let Some(body) = body else {
            return unsupported(f, "kernel without a body");
        };
        // `__launch_bounds__(256)`: a block the launch leaves open is at
        // most that wide along each axis.
        if let Some(most) = self.launch_bound(f, &body) {
            for d in builtin::BLOCK_DIM {
                if !self.launch.iter().any(|(n, _)| n == d) {
                    let c = Cond::cmp(Rel::Le, Expr::var(d), Expr::Int(most));
                    self.prog.assumes.push(c);
                }
            }
        }
        for axiom in file_axioms(&f.unit()) {
            let c = self.cond(&axiom)?;
            self.require(c);
        }
        let j = self.block(&body.children())?;
        if let Some((label, _)) = j.gotos.first() {
            return unsupported(f, &format!("goto {label} before its label or into a block"));
        }
        for (kept, target) in &self.pointer_reads {
            if self.opaque_private.contains(kept) {
                let why = format!("a pointer kept in `{kept}` that may point anywhere");
                return unsupported(f, why);
            }
            let elsewhere = self
                .kept_pointers
                .iter()
                .any(|(k, q)| k == kept && (q.target != *target || !q.alts.is_empty()));
            if elsewhere {
                let why =
                    format!("a pointer kept in `{kept}` that points into more than one array");
                return unsupported(f, why);
            }
        }
        let mut written = HashSet::new();
        for s in &self.out {
            written_arrays(s, &mut written);
        }
        self.check_published();
        for s in &mut self.out {
            forget_written_cells(s, &written);
        }
        let unwritten: HashSet<String> = self
            .stored
            .iter()
            .filter(|(_, array, loc)| !written.contains(array) && !self.read_deps.contains_key(loc))
            .map(|(local, _, _)| local.clone())
            .collect();
        let alike = self.alike.settle(&unwritten);
        self.prog.block_uniform.extend(alike.block);
        self.prog.control_uniform.extend(alike.control);
        for (local, array, loc) in std::mem::take(&mut self.stored) {
            let deps = self.read_deps.get(&loc).cloned().unwrap_or_default();
            if written.contains(&array) || self.loop_reads.contains(&loc) || !deps.is_empty() {
                let read = crate::protocol::UniformRead {
                    local,
                    array,
                    loc,
                    deps,
                };
                self.prog.uniform_reads.push(read);
            } else {
                self.prog.block_uniform.push(local);
            }
        }
        // A ticket's cell moves one way: every atomic on it adds (or every
        // one subtracts), and atomics on other cells of its array (partial
        // sums beside the counter) never reach it.
        let atomics = &self.atomics;
        let out = &self.out;
        let assumes = &self.prog.assumes;
        let one_way = |array: &str, cell: &[Expr]| {
            let mut ways = atomics
                .iter()
                .filter(|(a, i, _)| a == array && i == cell)
                .map(|(_, _, w)| *w);
            let first = ways.next().flatten();
            first.is_some()
                && ways.all(|w| w == first)
                && memory::others_apart(out, array, cell, assumes, |mode, index, _| {
                    mode == Mode::Atomic && index != cell
                })
        };
        // A counter per row is not compared with its neighbours across
        // threads: every atomic on its array must name the same cell.
        let only_cell = |array: &str, cell: &[Expr]| {
            let stray = std::cell::Cell::new(false);
            memory::others_apart(out, array, cell, assumes, |mode, index, _| {
                stray.set(stray.get() || (mode == Mode::Atomic && index != cell));
                false
            });
            !stray.get() && atomics.iter().all(|(a, i, _)| a != array || i == cell)
        };
        self.prog.tickets = self
            .tickets
            .iter()
            .filter(|(t, array, cell)| {
                one_way(array, cell) && (t.cell.is_none() || only_cell(array, cell))
            })
            .map(|(t, _, _)| t.clone())
            .collect();
        // A block's ticket is one value for the block, where barriers under
        // conditions on it are reached by all of its threads or none.
        let block_tickets = self.prog.tickets.iter().filter(|t| t.block);
        let block_tickets: Vec<String> = block_tickets.map(|t| t.local.clone()).collect();
        self.prog.block_uniform.extend(block_tickets);
        self.settle_ticket_reads();
        if self.flat_block {
            for d in &builtin::BLOCK_DIM[1..] {
                self.prog
                    .assumes
                    .push(Cond::cmp(Rel::Eq, Expr::var(d), Expr::Int(1)));
            }
        }
        if let (Some(t), false) = (&self.block_ticket, self.flat_block) {
            let vars = self.named_vars();
            self.ticket_axes_open = (1..3).any(|d| {
                !t.fixed[d]
                    && !self.flat_axis(d)
                    && (vars.contains(builtin::TID[d]) || vars.contains(builtin::BLOCK_DIM[d]))
            });
        }
        if self.collectives > 0 {
            // A collective's cell names every axis of the block; an axis
            // nothing else names is fixed to one thread
            // (`Kernel::unused_dimensions`), and must stay unnamed.
            let unnamed = builtin::unnamed_axes(&self.named_vars());
            for s in &mut self.out {
                flatten_collectives(s, &unnamed);
            }
        }
        if !self.locks.followed() {
            self.out.iter_mut().for_each(locks::drop_locks);
        }
        let mut p = std::mem::take(&mut self.prog);
        p.body = std::mem::take(&mut self.out);
        Ok(p)
    }

    /// The variables the lowered body's indexes, conditions and bounds and
    /// the kernel's assumptions name (not the values writes store).
    fn named_vars(&self) -> BTreeSet<String> {
        let mut vars = BTreeSet::new();
        for s in &self.out {
            mentioned_vars(s, &mut vars);
        }
        for a in &self.prog.assumes {
            a.free_vars(&mut vars);
        }
        vars
    }

    fn name(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "v" } else { base };
        let n = self.fresh.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 && !builtin::is_builtin(base) {
            base.to_string()
        } else {
            format!("{base}#{n}")
        }
    }

    /// The variable key `k` stands for: the caller's variable a reference
    /// parameter is bound to, or `k` itself.
    fn aliased(&self, k: String) -> String {
        self.aliases.get(&k).cloned().unwrap_or(k)
    }

    /// [`Lower::aliased`] of a variable's key or of a field's (`key.a.b`).
    fn aliased_slot(&self, k: String) -> String {
        match k.split_once('.') {
            Some((var, fields)) => format!("{}.{fields}", self.aliased(var.to_string())),
            None => self.aliased(k),
        }
    }

    fn param(&mut self, base: &str) -> String {
        let n = self.name(base);
        self.prog.params.push(n.clone());
        n
    }

    /// A thread-global value the front-end cannot compute.
    fn unknown_param(&mut self, base: &str) -> String {
        let n = self.param(base);
        self.prog.unknown_params.push(n.clone());
        n
    }

    /// A pointer as a number (`reinterpret_cast<size_t>(p) % 16 == 0`,
    /// a test of alignment): when every thread of a block has the pointer
    /// at the same cell, one unknown the block shares; `None` otherwise.
    /// (The exact address, its array's plus the bytes, leaves the solver
    /// remainders of products it does not finish.)
    fn address_of(&mut self, p: &Ptr) -> Option<Expr> {
        if !matches!(p.target, Target::Shared(_) | Target::ReadOnly(_)) {
            return None;
        }
        let [at] = p.index.as_slice() else {
            return None;
        };
        if p.rounded || p.unaligned.is_some() || !p.alts.is_empty() || p.address {
            return None;
        }
        if !self.block_level(at) {
            return None;
        }
        let v = self.local("address");
        if let Expr::Var(name) = &v {
            self.prog.block_uniform.push(name.clone());
        }
        Some(v)
    }

    /// Whether axis `d` of the block has one thread: the kernel lowered
    /// flat, or `__requires(blockDim.y == 1)` or every launch says so.
    fn flat_axis(&self, d: usize) -> bool {
        let size = builtin::BLOCK_DIM[d];
        self.flat_block
            || self
                .prog
                .assumes
                .iter()
                .flat_map(Cond::fixed_values)
                .any(|(v, n)| v == size && n == 1)
            || self.launch.iter().any(|(v, n)| v == size && *n == 1)
    }

    fn local(&mut self, base: &str) -> Expr {
        let n = self.name(base);
        self.prog.locals.push(n.clone());
        Expr::Var(n)
    }

    /// The array a declaration of memory names: its spelling, unless
    /// another declaration took it first (a `__shared__` local of the same
    /// name in another function, another instance of a template or another
    /// block; a parameter), then the spelling numbered (`part#2`). Every
    /// `extern __shared__` array is the block's one dynamic shared memory,
    /// named as the first one reached.
    fn array_of(&mut self, d: &Node, scope: Scope) -> String {
        let identity = if scope == Scope::Shared && d.is_extern() {
            "extern __shared__".to_string()
        } else {
            key(d)
        };
        if let Some(name) = self.array_names.get(&identity) {
            return name.clone();
        }
        let spelling = d.spelling();
        let mut name = spelling.clone();
        let mut k = 1;
        while self.prog.arrays.iter().any(|a| a.name == name) {
            k += 1;
            name = format!("{spelling}#{k}");
        }
        self.add_array(&name, scope, loc_of(d));
        self.array_names.insert(identity, name.clone());
        name
    }

    fn add_array(&mut self, name: &str, scope: Scope, loc: Loc) {
        if !self.prog.arrays.iter().any(|a| a.name == name) {
            self.prog.arrays.push(Array {
                name: name.to_string(),
                scope,
                loc,
            });
        }
    }

    fn emit(&mut self, s: Stmt) {
        self.out.push(s);
    }

    /// Runs `f` with a fresh output buffer and returns what it emitted.
    /// A lock must be held on every path through it or on none.
    fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(T, Stmt)> {
        let saved = std::mem::take(&mut self.out);
        let locks = self.locks.state();
        let r = f(self);
        self.locks.leave(&locks);
        let inner = std::mem::replace(&mut self.out, saved);
        Ok((r?, Stmt::Seq(inner)))
    }

    fn emit_if(&mut self, cond: Cond, then: Stmt, els: Stmt, loc: Loc) {
        match cond {
            Cond::Bool(true) => self.emit(then),
            Cond::Bool(false) => self.emit(els),
            cond => {
                if then.matters() || els.matters() {
                    self.emit(Stmt::If {
                        cond,
                        then: Box::new(then),
                        els: Box::new(els),
                        loc,
                    })
                }
            }
        }
    }

    /// Where to report something found at `loc`.
    fn place(&self, loc: Loc) -> Loc {
        self.site.unwrap_or(loc)
    }

    fn sync(&mut self, loc: Loc) {
        let loc = self.place(loc);
        self.emit(Stmt::Sync(loc));
        self.facts.clear();
        let every_thread =
            self.outside_loops() && self.path.iter().all(|c| self.block_level_cond(c));
        self.sync_paths
            .push(every_thread.then(|| self.path.clone()));
        if every_thread && self.ticket_taken {
            self.after_ticket = true;
        }
    }

    /// Whether `c` is the same for every thread of a block.
    fn block_level_cond(&self, c: &Cond) -> bool {
        let mut vars = BTreeSet::new();
        c.free_vars(&mut vars);
        imp::is_uniform(&vars, &self.prog.params)
    }

    /// Whether what is lowered now runs once per thread: outside loops.
    fn outside_loops(&self) -> bool {
        self.loop_vars.is_empty() && self.unrolled_copies == 1
    }

    /// The conditions around what is lowered now, split into those on the
    /// block and those on the thread, when thread 0 meets the latter
    /// (`tid == 0`, `lane == 0`): then some thread of every block whose
    /// conditions hold runs it.
    fn thread_zero_path(&self) -> Option<(Vec<Cond>, Vec<Cond>)> {
        self.thread_zero_path_by(|c| self.block_level_cond(c))
    }

    /// [`Lower::thread_zero_path`] with `on_block` telling the conditions
    /// on the block.
    fn thread_zero_path_by(
        &self,
        on_block: impl Fn(&Cond) -> bool,
    ) -> Option<(Vec<Cond>, Vec<Cond>)> {
        let (mut block, mut thread) = (Vec::new(), Vec::new());
        for c in &self.path {
            if on_block(c) {
                block.push(c.clone());
                continue;
            }
            let first = builtin::TID
                .iter()
                .fold(c.clone(), |c, t| c.subst(t, &Expr::Int(0)));
            if imp::simplify_cond(&first) != Cond::Bool(true) {
                return None;
            }
            thread.push(c.clone());
        }
        Some((block, thread))
    }

    /// The local that tells where a global access stands to the block's
    /// ticket (see `ticket_phase`).
    fn phase_local(&mut self) -> String {
        if let Some(v) = &self.phase_var {
            return v.clone();
        }
        let v = match self.local("ticket_phase") {
            Expr::Var(v) => v,
            _ => unreachable!("a fresh local is a variable"),
        };
        self.phase_var = Some(v.clone());
        v
    }

    /// The condition telling where a global access lowered now stands to
    /// the block's ticket, when accesses are ordered by it: before it, for
    /// accesses a barrier or the taking thread's own order puts there;
    /// after the first barrier past it; else none.
    fn ticket_phase(&mut self) -> Option<Cond> {
        let order = self.order_by_ticket.as_ref()?;
        let phase = if self.after_ticket {
            1
        } else if self.ticket_taken {
            return None;
        } else if self.sync_paths.len() < order.syncs_before
            || order.select.iter().all(|c| self.path.contains(c))
        {
            0
        } else {
            return None;
        };
        let var = self.phase_local();
        Some(Cond::cmp(Rel::Eq, Expr::var(&var), Expr::Int(phase)))
    }

    /// What the first lowering found about the block's ticket that the
    /// next must know: `Some(None)` to lower again without block tickets
    /// (taken more than once, or one thread of a block is not one thread
    /// of a block that varies along an axis its conditions leave open),
    /// `Some(Some(t))` to order global accesses by ticket `t`.
    fn settled_ticket(&self) -> Option<Option<BlockTicket>> {
        if self.no_block_tickets {
            return None;
        }
        if self.ticket_conflict {
            return Some(None);
        }
        let t = self.block_ticket.as_ref()?;
        if self.ticket_axes_open {
            return Some(None);
        }
        match &self.order_by_ticket {
            None if t.fenced => Some(Some(t.clone())),
            _ => None,
        }
    }

    /// `__syncwarp` in a block that may span warps: other lanes' writes
    /// are visible after it, as after a block barrier.
    fn warp_sync(&mut self, loc: Loc) {
        let loc = self.place(loc);
        self.emit(Stmt::WarpSync(loc));
        self.facts.clear();
    }

    fn grid_sync(&mut self, loc: Loc) {
        let loc = self.place(loc);
        self.emit(Stmt::GridSync(loc));
        self.facts.clear();
    }

    /// Records, once, something the protocol models less exactly than the
    /// kernel runs: its races are then at most possible.
    fn approximate(&mut self, note: &str) {
        if !self.prog.approximations.iter().any(|a| a == note) {
            self.prog.approximations.push(note.to_string());
        }
    }

    fn materialize(&mut self, v: Val, hint: &str) -> Expr {
        match v {
            Val::Int(e) if !too_big(&e) => simplify(&e),
            Val::Uniform | Val::Float(_) => Expr::Var(self.unknown_param(hint)),
            Val::Stored(array, loc) => {
                let v = self.local(hint);
                if let Expr::Var(name) = &v {
                    self.stored.push((name.clone(), array, loc));
                }
                if self.unsigned_reads.contains(&loc) {
                    self.assume_never_negative(&v);
                }
                v
            }
            _ => self.local(hint),
        }
    }

    /// `local` holds a value of an unsigned type: C has no negative one, and
    /// a witness that needs one is no run (a tile index published in an
    /// `unsigned` shared variable below a grid's width).
    fn assume_never_negative(&mut self, local: &Expr) {
        if matches!(local, Expr::Var(v) if self.prog.locals.contains(v)) {
            let fact = Cond::cmp(Rel::Ge, local.clone(), Expr::Int(0));
            if !self.prog.assumes.contains(&fact) {
                self.prog.assumes.push(fact);
            }
        }
    }

    fn global(&self, array: &str) -> bool {
        self.prog
            .arrays
            .iter()
            .any(|a| a.name == array && a.scope == Scope::Global)
    }

    /// Whether `e` is one value for every thread of a block.
    fn block_uniform(&self, e: &Expr) -> bool {
        let mut vars = BTreeSet::new();
        e.free_vars(&mut vars);
        imp::is_uniform(&vars, &self.prog.params)
    }

    /// Whether `e` is one value for every thread of a block, the block's
    /// ticket included.
    fn block_level(&self, e: &Expr) -> bool {
        let mut vars = BTreeSet::new();
        e.free_vars(&mut vars);
        if let Some(t) = &self.block_ticket {
            vars.remove(&t.local);
        }
        imp::is_uniform(&vars, &self.prog.params)
    }

    /// Whether `e` is one value for every thread of a block at one
    /// iteration of each enclosing loop.
    fn uniform_in_loops(&self, e: &Expr) -> bool {
        let mut vars = BTreeSet::new();
        e.free_vars(&mut vars);
        vars.retain(|v| !self.uniform_loops.contains(v));
        imp::is_uniform(&vars, &self.prog.params)
    }

    /// Whether `v` is one value for every thread of the grid.
    fn grid_uniform(&self, v: &Val) -> bool {
        match v {
            Val::Uniform | Val::Float(_) => true,
            Val::Int(e) => {
                let mut vars = BTreeSet::new();
                e.free_vars(&mut vars);
                vars.iter()
                    .all(|v| builtin::is_dim(v) || self.prog.params.contains(v))
            }
            _ => false,
        }
    }

    fn int(&mut self, n: &Node, hint: &str) -> R<Expr> {
        let v = self.rvalue(n)?;
        let h = hint_of(n);
        Ok(self.materialize(v, if h.is_empty() { hint } else { &h }))
    }
}

/// The values a parameter of `p`'s type can take: one of its enumerators,
/// or the range of a narrow integer type (`bool`: 0 or 1). (The 32-bit
/// range of every `int` would be one more fact in every query, and break
/// the solver cache's sharing between kernels, for no race it removes.)
fn domain(p: &Node, name: &str) -> Option<Cond> {
    let v = Expr::var(name);
    let values = p.enumerators();
    if !values.is_empty() {
        return values
            .into_iter()
            .map(|e| Cond::cmp(Rel::Eq, v.clone(), Expr::Int(e)))
            .reduce(Cond::or);
    }
    let (lo, hi) = p.ty().int_range()?;
    Some(Cond::and(
        Cond::cmp(Rel::Le, Expr::Int(lo), v.clone()),
        Cond::cmp(Rel::Le, v, Expr::Int(hi)),
    ))
}

/// Whether the loop body starts or ends with a barrier at its top level.
fn barrier_at_edge(b: &Stmt) -> bool {
    fn flat(s: &Stmt, out: &mut Vec<Stmt>) {
        match s {
            Stmt::Seq(items) => items.iter().for_each(|i| flat(i, out)),
            s => out.push(s.clone()),
        }
    }
    let mut items = Vec::new();
    flat(b, &mut items);
    let barrier = |s: &Stmt| matches!(s, Stmt::Sync(_) | Stmt::GridSync(_));
    let first_sync = items.iter().position(barrier);
    let last_sync = items.iter().rposition(barrier);
    match (first_sync, last_sync) {
        (Some(f), Some(l)) => {
            !items[..f].iter().any(|s| s.has_access() || s.has_sync())
                || !items[l + 1..]
                    .iter()
                    .any(|s| s.has_access() || s.has_sync())
        }
        _ => false,
    }
}

/// A type's spelling without qualifiers (`const index_t`: `index_t`).
fn plain_type(spelling: &str) -> String {
    spelling
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "__restrict__"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a type's spelling names an integer type (`long`, `int64_t`,
/// `unsigned int`).
fn is_integer_type(spelling: &str) -> bool {
    let plain = plain_type(spelling);
    let words: Vec<&str> = plain.split(' ').collect();
    let builtin = words.iter().all(|w| {
        matches!(
            *w,
            "char" | "short" | "int" | "long" | "signed" | "unsigned" | "bool"
        )
    });
    let fixed = matches!(
        plain.trim_start_matches("std::"),
        "int8_t"
            | "int16_t"
            | "int32_t"
            | "int64_t"
            | "uint8_t"
            | "uint16_t"
            | "uint32_t"
            | "uint64_t"
            | "size_t"
            | "ptrdiff_t"
            | "intptr_t"
            | "uintptr_t"
    );
    builtin || fixed
}
