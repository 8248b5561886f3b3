//! Lowering (DESIGN §2, Faial §6 "Inference"): one `__global__` function's
//! clang AST to the imperative core. Values are kept symbolic while walking
//! (an environment from variables to expressions, SSA-like), so every index
//! comes out as an expression over thread ids, parameters, loop variables
//! and unknowns.

use super::clang::{kind as K, op, Node, Ty};
use super::Unsupported;
use crate::imp::{self, simplify, Array, Program, Stmt};
use crate::protocol::{builtin, Cond, Expr, Loc, Mode, Op, Rel, Scope};
use std::collections::{BTreeSet, HashMap, HashSet};

type R<T> = Result<T, Unsupported>;

#[derive(Clone, Debug, PartialEq)]
enum Target {
    /// An array that threads share: it gets a protocol.
    Shared(String),
    /// A thread's own array: tracked for read-back only.
    Private(String),
    /// A table no thread writes (`__constant__`, `const`): never races, and
    /// a cell reads the same in every thread.
    ReadOnly(String),
}

/// A pointer: an array and the index reached so far (one entry per fixed
/// dimension; pointer arithmetic moves the last one), in cells of the
/// array.
#[derive(Clone, Debug, PartialEq)]
struct Ptr {
    target: Target,
    index: Vec<Expr>,
    /// Bytes of one cell of the array, and of one element as the pointer
    /// sees it now (a cast to `uint4 *` over a `float` array: 4 and 16);
    /// 0 when unknown, which leaves indexes unscaled.
    cell: u64,
    elem: u64,
}

/// Math functions of the toolkit whose result depends on their arguments
/// only.
fn is_pure_math(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "ceil", "floor", "round", "trunc", "rint", "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10",
        "expm1", "log", "log2", "log10", "log1p", "pow", "fabs", "abs", "fmin", "fmax", "fmod",
        "sin", "cos", "tan", "atan", "atan2", "sinh", "cosh", "tanh", "hypot",
    ];
    let base = name.trim_start_matches("__nv_").trim_start_matches("__");
    let base = base
        .strip_suffix('f')
        .filter(|b| NAMES.contains(b))
        .unwrap_or(base);
    NAMES.contains(&base)
        || [
            "__float2int",
            "__float2uint",
            "__int2float",
            "__uint2float",
            "__double2int",
            "__float_as_",
            "__int_as_float",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The arrays `s` writes or updates atomically.
fn written_arrays(s: &Stmt, out: &mut HashSet<String>) {
    match s {
        Stmt::Access { array, mode, .. } => {
            if *mode != Mode::Read {
                out.insert(array.clone());
            }
        }
        Stmt::Sync(_) | Stmt::GridSync(_) => {}
        Stmt::Seq(v) => v.iter().for_each(|s| written_arrays(s, out)),
        Stmt::If { then, els, .. } => {
            written_arrays(then, out);
            written_arrays(els, out);
        }
        Stmt::For { body, .. } => written_arrays(body, out),
    }
}

/// The label a `goto` names.
fn goto_label(s: &Node) -> Option<String> {
    s.children()
        .into_iter()
        .map(|c| c.spelling())
        .find(|l| !l.is_empty())
}

/// Cells one access may cover before it is taken as its first cell only.
const MAX_WIDTH: u64 = 16;

/// A pointer without an offset (`p = a`) as one at offset 0, which is what
/// arithmetic on it makes it ([`Ptr::advance`]), so that it merges with an
/// offset one (`p = a + n * i`) at a join.
fn at_first_cell(v: Val) -> Val {
    match v {
        Val::Ptr(mut p) if p.index.is_empty() => {
            p.index.push(Expr::Int(0));
            Val::Ptr(p)
        }
        v => v,
    }
}

/// `e / d` when every term of `e` is a multiple of `d` (`4 * i + 8` by 4 is
/// `i + 2`); `None` otherwise.
fn exact_quotient(e: &Expr, d: i64) -> Option<Expr> {
    match e {
        Expr::Int(n) => (n % d == 0).then(|| Expr::Int(n / d)),
        Expr::Bin(op @ (Op::Add | Op::Sub), a, b) => {
            Some(Expr::bin(*op, exact_quotient(a, d)?, exact_quotient(b, d)?))
        }
        Expr::Bin(Op::Mul, a, b) => match (&**a, &**b) {
            (Expr::Int(n), x) | (x, Expr::Int(n)) if n % d == 0 => {
                Some(Expr::bin(Op::Mul, Expr::Int(n / d), x.clone()))
            }
            _ => exact_quotient(a, d)
                .map(|q| Expr::bin(Op::Mul, q, (**b).clone()))
                .or_else(|| exact_quotient(b, d).map(|q| Expr::bin(Op::Mul, (**a).clone(), q))),
        },
        _ => None,
    }
}

/// The type of the cells an array variable or pointer reaches: a
/// pointer's pointee, an array's innermost element.
fn cell_type(ty: Ty) -> Ty {
    let mut t = if ty.is_pointer() {
        ty.canonical().pointee()
    } else {
        ty
    };
    while t.is_array() {
        t = t.element();
    }
    t
}

impl Ptr {
    fn new(target: Target, index: Vec<Expr>) -> Ptr {
        Ptr {
            target,
            index,
            cell: 0,
            elem: 0,
        }
    }

    /// Of an array whose cells are values of `ty`.
    fn of_cells(target: Target, index: Vec<Expr>, ty: Ty) -> Ptr {
        let size = ty.size_of().unwrap_or(0);
        Ptr {
            target,
            index,
            cell: size,
            elem: size,
        }
    }

    /// The pointer seen as `ty` (a pointer type): a cast changes the size of
    /// the elements that arithmetic and subscripts count in.
    fn viewed_as(mut self, ty: Ty) -> Ptr {
        if self.cell != 0 && ty.is_pointer() {
            let pointee = ty.canonical().pointee();
            // A pointer to rows of a multi-dimensional array moves whole
            // dimensions, which the index keeps apart.
            if !pointee.is_array() {
                if let Some(size) = pointee.size_of() {
                    self.elem = size;
                }
            }
        }
        self
    }

    /// The cell an element `k` of the pointer's view lies in, counted from
    /// where the pointer is (a whole cell): for a view narrower than a cell
    /// (`float` over `float2`), the cell holding that part.
    fn cell_of(&self, k: Expr) -> Option<Expr> {
        let (cell, elem) = (self.cell, self.elem);
        if elem != 0 && elem < cell && cell % elem == 0 {
            let parts = i64::try_from(cell / elem).ok()?;
            return Some(simplify(&Expr::bin(Op::Div, k, Expr::Int(parts))));
        }
        self.in_cells(k)
    }

    /// Moves the last index by `cells` forward (`Add`) or back (`Sub`).
    fn advance(&mut self, op: Op, cells: Expr) {
        match self.index.last_mut() {
            Some(last) => *last = simplify(&Expr::bin(op, last.clone(), cells)),
            None => self
                .index
                .push(simplify(&Expr::bin(op, Expr::Int(0), cells))),
        }
    }

    /// Pointer arithmetic: `k` elements of the view further or back;
    /// unknown when that is part of a cell.
    fn moved(mut self, op: Op, k: Expr) -> Val {
        match self.in_cells(k) {
            Some(cells) => {
                self.advance(op, cells);
                Val::Ptr(self)
            }
            None => Val::Unknown,
        }
    }

    /// `k` elements of the pointer's view, in cells of its array; `None`
    /// when a view narrower than a cell moves by part of a cell.
    fn in_cells(&self, k: Expr) -> Option<Expr> {
        let (cell, elem) = (self.cell, self.elem);
        if cell == 0 || elem == 0 || cell == elem {
            return Some(k);
        }
        if elem > cell && elem % cell == 0 {
            let times = i64::try_from(elem / cell).ok()?;
            return Some(simplify(&Expr::bin(Op::Mul, k, Expr::Int(times))));
        }
        if cell % elem != 0 {
            return None;
        }
        let parts = i64::try_from(cell / elem).ok()?;
        exact_quotient(&simplify(&k), parts).map(|q| simplify(&q))
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
}

enum LVal {
    Var(String),
    Mem(Ptr),
    Unknown,
}

/// Conditions under which control left a statement early.
#[derive(Clone)]
struct Jumps {
    ret: Cond,
    brk: Cond,
    cont: Cond,
    /// Forward `goto`s not yet at their label: label and condition.
    gotos: Vec<(String, Cond)>,
}

impl Jumps {
    fn none() -> Jumps {
        Jumps {
            ret: Cond::Bool(false),
            brk: Cond::Bool(false),
            cont: Cond::Bool(false),
            gotos: Vec::new(),
        }
    }
    fn any(&self) -> Cond {
        Cond::or(
            Cond::or(self.leaving(), self.brk.clone()),
            self.cont.clone(),
        )
    }
    /// What leaves every enclosing loop: a return, or a `goto` to a label
    /// after it.
    fn leaving(&self) -> Cond {
        self.gotos
            .iter()
            .fold(self.ret.clone(), |acc, (_, c)| Cond::or(acc, c.clone()))
    }
    fn or(self, o: Jumps) -> Jumps {
        let mut gotos = self.gotos;
        for (label, c) in o.gotos {
            match gotos.iter_mut().find(|(l, _)| *l == label) {
                Some((_, d)) => *d = Cond::or(d.clone(), c),
                None => gotos.push((label, c)),
            }
        }
        Jumps {
            ret: Cond::or(self.ret, o.ret),
            brk: Cond::or(self.brk, o.brk),
            cont: Cond::or(self.cont, o.cont),
            gotos,
        }
    }
    fn under(self, c: &Cond) -> Jumps {
        Jumps {
            ret: Cond::and(c.clone(), self.ret),
            brk: Cond::and(c.clone(), self.brk),
            cont: Cond::and(c.clone(), self.cont),
            gotos: self
                .gotos
                .into_iter()
                .map(|(l, g)| (l, Cond::and(c.clone(), g)))
                .collect(),
        }
    }
    /// At label `label`: the `goto`s to it land here.
    fn arrive(&mut self, label: &str) {
        self.gotos.retain(|(l, _)| l != label);
    }
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
    stack: Vec<String>,
    returns: Vec<Vec<(Cond, Val)>>,
    path: Vec<Cond>,
    aliases: HashMap<String, String>,
    loop_vars: Vec<String>,
    /// `__syncwarp` orders the whole block only when a block is one warp.
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
    /// Every atomic, by array: the way it moves its cell (+1 or -1) when it
    /// adds or subtracts a constant of at least 1.
    atomics: Vec<(String, Option<i8>)>,
    /// Locals returned by such atomics on a cell shared by the block or
    /// the grid, with the array (see [`crate::protocol::Kernel::tickets`]).
    tickets: Vec<(crate::protocol::Ticket, String)>,
}

/// How deep statements and expressions may nest before lowering gives up
/// (the walk is recursive).
const MAX_DEPTH: usize = 4000;

fn loc_of(n: &Node) -> Loc {
    let p = n.pos();
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

fn exprs<'a>(n: &Node<'a>) -> Vec<Node<'a>> {
    n.children()
        .into_iter()
        .filter(|c| c.is_expression())
        .collect()
}

fn as_cond(e: &Expr) -> Cond {
    match e {
        Expr::Ite(c, a, b) if **a == Expr::Int(1) && **b == Expr::Int(0) => (**c).clone(),
        Expr::Int(v) => Cond::Bool(*v != 0),
        _ => Cond::cmp(Rel::Ne, e.clone(), Expr::Int(0)),
    }
}

fn of_cond(c: Cond) -> Expr {
    match c {
        Cond::Bool(b) => Expr::Int(b as i64),
        c => Expr::Ite(Box::new(c), Box::new(Expr::Int(1)), Box::new(Expr::Int(0))),
    }
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
            stack: Vec::new(),
            returns: Vec::new(),
            path: Vec::new(),
            aliases: HashMap::new(),
            loop_vars: Vec::new(),
            warp_is_block,
            depth: 0,
            main: main.to_string(),
            site,
            sizes: HashMap::new(),
            stored: Vec::new(),
            atomics: Vec::new(),
            tickets: Vec::new(),
        }
    }

    /// Lowers a kernel (a function definition or function template; for a
    /// template, `template_args` are an instantiation's arguments, and value
    /// parameters without one are thread-global parameters).
    pub fn kernel(mut self, f: &Node, template_args: &[Result<i64, String>]) -> R<Program> {
        self.stack.push(key(f));
        let mut body = None;
        let mut template_index = 0;
        for c in f.children() {
            let k = c.kind();
            if k == K::TEMPLATE_TYPE_PARAM || k == K::TEMPLATE_TEMPLATE_PARAM {
                template_index += 1;
            } else if k == K::NON_TYPE_TEMPLATE_PARAM {
                let v = match template_args.get(template_index) {
                    Some(Ok(v)) => Expr::Int(*v),
                    _ => Expr::Var(self.param(&c.spelling())),
                };
                template_index += 1;
                self.env.insert(key(&c), Val::Int(v));
            } else if k == K::PARM {
                let name = c.spelling();
                let ty = c.ty();
                if ty.is_pointer() || ty.is_array() {
                    let name = if name.is_empty() {
                        self.name("arg")
                    } else {
                        name
                    };
                    self.add_array(&name, Scope::Global, loc_of(&c));
                    self.env.insert(
                        key(&c),
                        Val::Ptr(Ptr::of_cells(Target::Shared(name), vec![], cell_type(ty))),
                    );
                } else if ty.is_integral() && !name.is_empty() {
                    let name = self.param(&name);
                    self.env.insert(key(&c), Val::Int(Expr::Var(name)));
                } else {
                    self.env.insert(key(&c), Val::Unknown);
                }
            } else if k == K::COMPOUND {
                body = Some(c);
            }
        }
        let Some(body) = body else {
            return unsupported(f, "kernel without a body");
        };
        let j = self.block(&body.children())?;
        if let Some((label, _)) = j.gotos.first() {
            return unsupported(f, &format!("goto {label} before its label or into a block"));
        }
        let mut written = HashSet::new();
        for s in &self.out {
            written_arrays(s, &mut written);
        }
        for (local, array, loc) in std::mem::take(&mut self.stored) {
            if written.contains(&array) {
                let read = crate::protocol::UniformRead { local, array, loc };
                self.prog.uniform_reads.push(read);
            } else {
                self.prog.block_uniform.push(local);
            }
        }
        let atomics = &self.atomics;
        let one_way = |array: &str| {
            let mut ways = atomics.iter().filter(|(a, _)| a == array).map(|(_, w)| *w);
            let first = ways.next().flatten();
            first.is_some() && ways.all(|w| w == first)
        };
        self.prog.tickets = self
            .tickets
            .iter()
            .filter(|(_, array)| one_way(array))
            .map(|(t, _)| t.clone())
            .collect();
        let mut p = self.prog;
        p.body = self.out;
        Ok(p)
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

    fn local(&mut self, base: &str) -> Expr {
        let n = self.name(base);
        self.prog.locals.push(n.clone());
        Expr::Var(n)
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
    fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<(T, Stmt)> {
        let saved = std::mem::take(&mut self.out);
        let r = f(self);
        let inner = std::mem::replace(&mut self.out, saved);
        Ok((r?, Stmt::Seq(inner)))
    }

    fn emit_if(&mut self, cond: Cond, then: Stmt, els: Stmt, loc: Loc) {
        match cond {
            Cond::Bool(true) => self.emit(then),
            Cond::Bool(false) => self.emit(els),
            cond => {
                if then.has_access() || then.has_sync() || els.has_access() || els.has_sync() {
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
    }

    fn grid_sync(&mut self, loc: Loc) {
        let loc = self.place(loc);
        self.emit(Stmt::GridSync(loc));
        self.facts.clear();
    }

    /// `sync()` of a cooperative group of type `ty`: a barrier of the block
    /// or of the grid; `None` for groups that are not modelled (tiles).
    fn group_sync(&mut self, ty: &str, loc: Loc) -> Option<Val> {
        match group_kind(ty)? {
            "thread_block" => self.sync(loc),
            "grid_group" | "multi_grid_group" => self.grid_sync(loc),
            _ => return None,
        }
        Some(Val::Unknown)
    }

    fn access(&mut self, p: &Ptr, mode: Mode, loc: Loc) {
        self.access_storing(p, mode, loc, None);
    }

    /// An access; for a write, with the value it stores when known.
    fn access_storing(&mut self, p: &Ptr, mode: Mode, loc: Loc, value: Option<Expr>) {
        let loc = self.place(loc);
        let index: Vec<Expr> = if p.index.is_empty() {
            vec![Expr::Int(0)]
        } else {
            p.index.iter().map(simplify).collect()
        };
        if let Target::Shared(array) = &p.target {
            // An element wider than a cell (a `float4` through a cast over
            // `float`) covers that many cells; each is accessed, so that a
            // narrower access to any of them meets it.
            let width = match (p.cell, p.elem) {
                (c, e) if c > 0 && e > c && e % c == 0 && e / c <= MAX_WIDTH => e / c,
                _ => 1,
            };
            for part in 0..width {
                let mut index = index.clone();
                if let Some(last) = index.last_mut() {
                    *last = simplify(&Expr::add(last.clone(), Expr::Int(part as i64)));
                }
                self.emit(Stmt::Access {
                    array: array.clone(),
                    mode,
                    index,
                    loc,
                    value: if part == 0 { value.clone() } else { None },
                });
            }
        }
        if mode != Mode::Read {
            // Any cell of the array may be the one just written.
            self.facts.retain(|(t, _, _)| t != &p.target);
        }
    }

    fn write(&mut self, p: &Ptr, v: &Val, loc: Loc) {
        // A value the block shares is stored as one variable, so that two
        // threads storing it store equal values (`out[0] = s[0]`).
        let shared = matches!(v, Val::Uniform | Val::Stored(..));
        let v = &if shared {
            Val::Int(self.materialize(v.clone(), "stored"))
        } else {
            v.clone()
        };
        let value = match v {
            Val::Int(e) if !too_big(e) => Some(simplify(e)),
            Val::Ptr(q) => self.address(q, p),
            _ => None,
        };
        self.access_storing(p, Mode::Write, loc, value);
        let index: Vec<Expr> = if p.index.is_empty() {
            vec![Expr::Int(0)]
        } else {
            p.index.iter().map(simplify).collect()
        };
        if let Val::Int(e) = v {
            self.facts.push((p.target.clone(), index, e.clone()));
        }
    }

    /// The address `q` as a value stored at `dst`, when two threads storing
    /// it store equal numbers: a cell of a one-dimensional array, as `&a`
    /// plus the cell. A `__shared__` array's address is the block's own, so
    /// it is no value stored to global memory.
    fn address(&self, q: &Ptr, dst: &Ptr) -> Option<Expr> {
        let Target::Shared(a) = &q.target else {
            return None;
        };
        let cell = match q.index.as_slice() {
            [] => &Expr::Int(0),
            [cell] => cell,
            _ => return None,
        };
        let dst_global = matches!(&dst.target, Target::Shared(d) if self.global(d));
        if dst_global && !self.global(a) {
            return None;
        }
        Some(simplify(&Expr::add(Expr::var(&format!("&{a}")), cell.clone())))
    }

    fn read(&mut self, p: &Ptr, loc: Loc) -> Val {
        self.access(p, Mode::Read, loc);
        let index: Vec<Expr> = if p.index.is_empty() {
            vec![Expr::Int(0)]
        } else {
            p.index.iter().map(simplify).collect()
        };
        let known = self
            .facts
            .iter()
            .rev()
            .find(|(t, i, _)| *t == p.target && *i == index)
            .map(|(_, _, e)| Val::Int(e.clone()));
        match known {
            Some(v) => v,
            None if matches!(p.target, Target::ReadOnly(_))
                && index
                    .iter()
                    .all(|i| self.grid_uniform(&Val::Int(i.clone()))) =>
            {
                Val::Uniform
            }
            None => match &p.target {
                Target::Shared(a) if index.iter().all(|i| self.block_uniform(i)) => {
                    Val::Stored(a.clone(), self.place(loc))
                }
                _ => Val::Unknown,
            },
        }
    }

    fn materialize(&mut self, v: Val, hint: &str) -> Expr {
        match v {
            Val::Int(e) if !too_big(&e) => simplify(&e),
            Val::Uniform => Expr::Var(self.unknown_param(hint)),
            Val::Stored(array, loc) => {
                let v = self.local(hint);
                if let Expr::Var(name) = &v {
                    self.stored.push((name.clone(), array, loc));
                }
                v
            }
            _ => self.local(hint),
        }
    }

    /// What an atomic on `p` returns: a ticket when it adds (subtracts) a
    /// constant of at least 1 to one cell the block or grid shares, else
    /// unknown.
    fn atomic_result(&mut self, name: &str, p: &Ptr, operands: &[Val]) -> Val {
        let Target::Shared(array) = &p.target else {
            return Val::Unknown;
        };
        let base = name.trim_end_matches("_block").trim_end_matches("_system");
        let step = match operands {
            [Val::Int(Expr::Int(c))] if *c >= 1 => Some(c),
            _ => None,
        };
        let way = match (base, step) {
            ("atomicAdd", Some(_)) => Some(1),
            ("atomicSub", Some(_)) => Some(-1),
            _ => None,
        };
        self.atomics.push((array.clone(), way));
        let one_cell = p.index.iter().all(|i| self.block_uniform(i));
        if way.is_none() || !one_cell {
            return Val::Unknown;
        }
        let grid = self.global(array)
            && p.index.iter().all(|i| self.grid_uniform(&Val::Int(i.clone())));
        let local = self.local("ticket");
        if let Expr::Var(name) = &local {
            let ticket = crate::protocol::Ticket {
                local: name.clone(),
                grid,
            };
            self.tickets.push((ticket, array.clone()));
        }
        Val::Int(local)
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

    /// Whether `v` is one value for every thread of the grid.
    fn grid_uniform(&self, v: &Val) -> bool {
        match v {
            Val::Uniform => true,
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

    // ---------------------------------------------------------------- statements

    fn block(&mut self, stmts: &[Node]) -> R<Jumps> {
        for (i, s) in stmts.iter().enumerate() {
            let j = self.stmt(s)?;
            if j.any() != Cond::Bool(false) {
                return self.after_jumps(&stmts[i + 1..], j, loc_of(s));
            }
        }
        Ok(Jumps::none())
    }

    /// The statements after some threads jumped (`pending`): they run for
    /// the others, and from a label on, for the threads whose `goto`s land
    /// there too.
    fn after_jumps(&mut self, stmts: &[Node], pending: Jumps, loc: Loc) -> R<Jumps> {
        let landing = stmts.iter().position(|t| {
            t.kind() == K::LABEL && pending.gotos.iter().any(|(l, _)| *l == t.spelling())
        });
        let upto = landing.unwrap_or(stmts.len());
        let stay = Cond::not(pending.any());
        self.path.push(stay.clone());
        let r = self.capture(|me| me.block(&stmts[..upto]));
        self.path.pop();
        let (skipped, buf) = r?;
        self.emit_if(stay.clone(), buf, Stmt::skip(), loc);
        let mut pending = pending.or(skipped.under(&stay));
        let Some(k) = landing else {
            return Ok(pending);
        };
        pending.arrive(&stmts[k].spelling());
        if pending.any() == Cond::Bool(false) {
            return self.block(&stmts[k..]);
        }
        self.after_jumps(&stmts[k..], pending, loc_of(&stmts[k]))
    }

    fn stmt(&mut self, s: &Node) -> R<Jumps> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(s, "code nested too deeply")
        } else {
            self.stmt_at(s)
        };
        self.depth -= 1;
        r
    }

    fn stmt_at(&mut self, s: &Node) -> R<Jumps> {
        let k = s.kind();
        if k == K::COMPOUND {
            return self.block(&s.children());
        }
        if k == K::DECL_STMT {
            for d in s.children() {
                if d.kind() == K::VAR {
                    self.decl(&d)?;
                }
            }
            return Ok(Jumps::none());
        }
        if s.is_expression() {
            self.rvalue(s)?;
            return Ok(Jumps::none());
        }
        match k {
            _ if k == K::IF => self.if_stmt(s),
            _ if k == K::FOR => self.for_stmt(s),
            _ if k == K::WHILE || k == K::DO => self.while_stmt(s, k == K::DO),
            _ if k == K::SWITCH => self.switch_stmt(s),
            _ if k == K::RETURN => {
                let e = exprs(s);
                if let Some(e) = e.first() {
                    let v = self.rvalue(e)?;
                    let path = Cond::all(self.path.iter().cloned());
                    if let Some(r) = self.returns.last_mut() {
                        r.push((path, v));
                    }
                }
                Ok(Jumps {
                    ret: Cond::Bool(true),
                    ..Jumps::none()
                })
            }
            _ if k == K::BREAK => Ok(Jumps {
                brk: Cond::Bool(true),
                ..Jumps::none()
            }),
            _ if k == K::CONTINUE => Ok(Jumps {
                cont: Cond::Bool(true),
                ..Jumps::none()
            }),
            _ if k == K::NULL_STMT => Ok(Jumps::none()),
            _ if k == K::LABEL => self.block(&s.children()),
            _ if k == K::ASM || k == K::MS_ASM => unsupported(s, "inline assembly"),
            _ if k == K::GOTO => match goto_label(s) {
                Some(label) => Ok(Jumps {
                    gotos: vec![(label, Cond::Bool(true))],
                    ..Jumps::none()
                }),
                None => unsupported(s, "goto"),
            },
            _ if k == K::TRY || k == K::FOR_RANGE => unsupported(s, "unsupported statement"),
            _ => {
                // Statements clang does not expose (`#pragma unroll`,
                // `[[likely]]`, attributed statements): their one
                // sub-statement.
                let subs: Vec<Node> = s
                    .children()
                    .into_iter()
                    .filter(|c| !c.is_attribute())
                    .collect();
                match subs.as_slice() {
                    [one] => self.stmt(one),
                    [] => Ok(Jumps::none()),
                    _ => unsupported(s, format!("unsupported statement (kind {k})")),
                }
            }
        }
    }

    fn decl(&mut self, d: &Node) -> R<()> {
        let name = d.spelling();
        let ty = d.ty();
        let k = key(d);
        if d.has_attr(K::CUDA_SHARED) {
            self.add_array(&name, Scope::Shared, loc_of(d));
            let index = if ty.is_array() {
                vec![]
            } else {
                vec![Expr::Int(0)]
            };
            self.env.insert(
                k,
                Val::Ptr(Ptr::of_cells(Target::Shared(name), index, cell_type(ty))),
            );
            return Ok(());
        }
        let init = exprs(d).into_iter().last();
        if ty.is_record() {
            // `uint3 t = threadIdx;`, `S b = a;`: the fields come along.
            if let Some(src) = init.and_then(record_source) {
                if let Some(sd) = src.referenced() {
                    let dims = match sd.spelling().as_str() {
                        "threadIdx" => Some(builtin::TID),
                        "blockIdx" => Some(builtin::BID),
                        "blockDim" => Some(builtin::BLOCK_DIM),
                        "gridDim" => Some(builtin::GRID_DIM),
                        _ => None,
                    };
                    match dims {
                        Some(names) if sd.pos().file.starts_with(super::prelude::DIR) => {
                            for (f, n) in ["x", "y", "z"].iter().zip(names) {
                                self.env.insert(format!("{k}.{f}"), Val::Int(Expr::var(n)));
                            }
                        }
                        _ => {
                            let from = format!("{}.", key(&sd));
                            let fields: Vec<(String, Val)> = self
                                .env
                                .iter()
                                .filter_map(|(key, v)| {
                                    key.strip_prefix(&from)
                                        .map(|f| (format!("{k}.{f}"), v.clone()))
                                })
                                .collect();
                            self.env.extend(fields);
                        }
                    }
                }
                self.env.insert(k, Val::Unknown);
                return Ok(());
            }
        }
        if ty.is_array() {
            let priv_name = self.name(&format!("{name}@private"));
            self.env
                .insert(k, Val::Ptr(Ptr::new(Target::Private(priv_name), vec![])));
            if let Some(init) = init {
                self.rvalue(&init)?;
            }
            return Ok(());
        }
        if ty.is_reference() {
            if let Some(init) = init {
                match self.lvalue(&init)? {
                    LVal::Var(target) => {
                        self.aliases.insert(k, target);
                    }
                    LVal::Mem(p) => {
                        self.env.insert(k.clone(), Val::Ptr(p));
                        self.aliases.insert(k.clone(), format!("*{k}"));
                    }
                    LVal::Unknown => {
                        self.env.insert(k, Val::Unknown);
                    }
                }
            }
            return Ok(());
        }
        let v = match init {
            Some(init) => {
                let v = self.rvalue(&init)?;
                match v {
                    Val::Unknown if ty.is_integral() => Val::Int(self.local(&name)),
                    Val::Unknown if ty.is_pointer() => self.pointer_conversion(&init)?,
                    // One parameter (or local) for the variable, not one
                    // per use.
                    v @ (Val::Uniform | Val::Stored(..)) => Val::Int(self.materialize(v, &name)),
                    v => v,
                }
            }
            None if ty.is_integral() => Val::Int(self.local(&name)),
            // A pointer declared without a value has none until assigned:
            // left out of the state, so that a branch assigning it decides
            // it after the branch (using it unassigned is undefined).
            None if ty.is_pointer() => return Ok(()),
            None => Val::Unknown,
        };
        self.env.insert(k, v);
        Ok(())
    }

    /// A pointer initialised from an object whose class converts to a
    /// pointer without looking at the object (`T *s = SharedMemory<T>();`,
    /// whose conversion returns an `extern __shared__` array): the
    /// conversion's body, inlined. Unknown otherwise.
    fn pointer_conversion(&mut self, init: &Node) -> R<Val> {
        let e = strip(*init);
        let Some(class) = e.type_declaration() else {
            return Ok(Val::Unknown);
        };
        let conversions: Vec<Node> = class
            .children()
            .into_iter()
            .filter(|c| c.kind() == K::CONVERSION && children_has_body(c))
            .collect();
        match conversions.first() {
            Some(f) if !uses_this(f) => self.inline(init, f, &[]),
            _ => Ok(Val::Unknown),
        }
    }

    fn if_stmt(&mut self, s: &Node) -> R<Jumps> {
        let ch = s.children();
        let (cond_n, then_n, else_n) = match ch.len() {
            2 => (ch[0], ch[1], None),
            3 => (ch[0], ch[1], Some(ch[2])),
            _ => return unsupported(s, "if with an initializer"),
        };
        let c = self.cond(&cond_n)?;
        self.branches(
            c,
            |me| me.stmt(&then_n),
            |me| match else_n {
                Some(e) => me.stmt(&e),
                None => Ok(Jumps::none()),
            },
            loc_of(s),
        )
    }

    /// Lowers two branches from the same state and merges the states.
    fn branches(
        &mut self,
        c: Cond,
        then: impl FnOnce(&mut Self) -> R<Jumps>,
        els: impl FnOnce(&mut Self) -> R<Jumps>,
        loc: Loc,
    ) -> R<Jumps> {
        let (env0, facts0) = (self.env.clone(), self.facts.clone());
        self.path.push(c.clone());
        let t = self.capture(then);
        self.path.pop();
        let (jt, bt) = t?;
        let (env_t, facts_t) = (
            std::mem::replace(&mut self.env, env0),
            std::mem::replace(&mut self.facts, facts0),
        );
        let nc = Cond::not(c.clone());
        self.path.push(nc.clone());
        let e = self.capture(els);
        self.path.pop();
        let (je, be) = e?;
        self.merge(&c, env_t, facts_t);
        self.emit_if(c.clone(), bt, be, loc);
        Ok(jt.under(&c).or(je.under(&nc)))
    }

    fn merge(
        &mut self,
        c: &Cond,
        env_t: HashMap<String, Val>,
        facts_t: Vec<(Target, Vec<Expr>, Expr)>,
    ) {
        let mut merged = HashMap::new();
        // A pointer assigned on one side only, and unassigned on the other
        // (declared without a value), is what that side assigned.
        for (k, ve) in &self.env {
            if matches!(ve, Val::Ptr(_)) && !env_t.contains_key(k) {
                merged.insert(k.clone(), ve.clone());
            }
        }
        for (k, vt) in env_t {
            let Some(ve) = self.env.get(&k) else {
                if matches!(vt, Val::Ptr(_)) {
                    merged.insert(k, vt);
                }
                continue;
            };
            let v = if &vt == ve {
                vt
            } else {
                match (at_first_cell(vt), at_first_cell(ve.clone())) {
                    // Merged values share their past: sizes would double
                    // with every conditional update.
                    (Val::Int(a), Val::Int(b)) if too_big(&a) || too_big(&b) => Val::Unknown,
                    (Val::Int(a), Val::Int(b)) => Val::Int(simplify(&Expr::Ite(
                        Box::new(c.clone()),
                        Box::new(a),
                        Box::new(b),
                    ))),
                    (Val::Ptr(a), Val::Ptr(b))
                        if a.target == b.target
                            && (a.cell, a.elem) == (b.cell, b.elem)
                            && a.index.len() == b.index.len()
                            && !a.index.iter().chain(&b.index).any(too_big) =>
                    {
                        Val::Ptr(Ptr {
                            cell: a.cell,
                            elem: a.elem,
                            target: a.target,
                            index: a
                                .index
                                .into_iter()
                                .zip(b.index)
                                .map(|(x, y)| {
                                    simplify(&Expr::Ite(
                                        Box::new(c.clone()),
                                        Box::new(x),
                                        Box::new(y),
                                    ))
                                })
                                .collect(),
                        })
                    }
                    _ => Val::Unknown,
                }
            };
            merged.insert(k, v);
        }
        self.env = merged;
        self.facts.retain(|f| facts_t.contains(f));
    }

    /// The variables a loop body assigns: their values change from one
    /// iteration to the next.
    fn assigned(&self, n: &Node, out: &mut HashSet<String>) {
        let k = n.kind();
        let writes = (k == K::BINARY && n.binop() == op::ASSIGN)
            || k == K::COMPOUND_ASSIGN
            || (k == K::UNARY
                && matches!(
                    n.unop(),
                    op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC
                ));
        let target = if writes {
            exprs(n).first().copied()
        } else {
            None
        };
        if let Some(t) = target {
            let mut t = strip(t);
            while t.kind() == K::MEMBER_REF {
                match exprs(&t).first() {
                    Some(b) => t = strip(*b),
                    None => break,
                }
            }
            if t.kind() == K::DECL_REF {
                // A `__shared__` variable is memory: assigning it writes
                // the memory and leaves where it is as it was.
                if let Some(d) = t.referenced().filter(|d| !d.has_attr(K::CUDA_SHARED)) {
                    let k = key(&d);
                    out.insert(self.aliases.get(&k).cloned().unwrap_or(k));
                }
            }
        }
        for c in n.children() {
            self.assigned(&c, out);
        }
    }

    fn forget(&mut self, vars: &HashSet<String>, names: &HashMap<String, String>) {
        for v in vars {
            match self.env.get(v) {
                Some(Val::Int(_)) => {
                    let hint = names.get(v).cloned().unwrap_or_default();
                    let e = self.local(&hint);
                    self.env.insert(v.clone(), Val::Int(e));
                }
                // A pointer that moves stays in its array, at an unknown
                // place.
                Some(Val::Ptr(p)) => {
                    let mut p = p.clone();
                    let hint = format!("{}.offset", names.get(v).cloned().unwrap_or_default());
                    let e = self.local(&hint);
                    match p.index.last_mut() {
                        Some(last) => *last = e,
                        None => p.index.push(e),
                    }
                    self.env.insert(v.clone(), Val::Ptr(p));
                }
                Some(_) => {
                    self.env.insert(v.clone(), Val::Unknown);
                }
                None => {}
            }
        }
    }

    fn var_names(n: &Node, out: &mut HashMap<String, String>) {
        if n.kind() == K::DECL_REF {
            if let Some(d) = n.referenced() {
                out.insert(key(&d), d.spelling());
            }
        }
        for c in n.children() {
            Self::var_names(&c, out);
        }
    }

    /// `init; cond; inc` of a `for`, told apart by the semicolons.
    fn for_parts<'a>(
        s: &Node<'a>,
    ) -> (
        Option<Node<'a>>,
        Option<Node<'a>>,
        Option<Node<'a>>,
        Option<Node<'a>>,
    ) {
        let ch = s.children();
        if ch.len() == 4 {
            return (Some(ch[0]), Some(ch[1]), Some(ch[2]), Some(ch[3]));
        }
        let body = ch.last().copied();
        let mut semis = Vec::new();
        let mut depth = 0;
        for (t, off) in s.tokens() {
            match t.as_str() {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ";" if depth == 1 => semis.push(off),
                _ => {}
            }
        }
        let (mut init, mut cond, mut inc) = (None, None, None);
        if semis.len() == 2 {
            for c in &ch[..ch.len().saturating_sub(1)] {
                let o = c.offset();
                if o < semis[0] {
                    init = Some(*c);
                } else if o < semis[1] {
                    cond = Some(*c);
                } else {
                    inc = Some(*c);
                }
            }
        }
        (init, cond, inc, body)
    }

    fn for_stmt(&mut self, s: &Node) -> R<Jumps> {
        let (init, cond, inc, body) = Self::for_parts(s);
        let Some(body) = body else {
            return unsupported(s, "for without a body");
        };
        if let Some(i) = init {
            self.stmt(&i)?;
        }
        let mut assigned = HashSet::new();
        self.assigned(&body, &mut assigned);
        let mut names = HashMap::new();
        Self::var_names(s, &mut names);
        if let Some(shape) = self.loop_shape(cond, inc, &assigned) {
            return self.counted_loop(s, shape, &[body], &assigned, &names);
        }
        if let Some(i) = inc {
            self.assigned(&i, &mut assigned);
        }
        self.generic_loop(s, cond, &body, inc, &assigned, &names, false)
    }

    fn while_stmt(&mut self, s: &Node, is_do: bool) -> R<Jumps> {
        let ch = s.children();
        let (cond, body) = if is_do {
            (ch.get(1).copied(), ch.first().copied())
        } else {
            (ch.first().copied(), ch.get(1).copied())
        };
        let Some(body) = body else {
            return unsupported(s, "loop without a body");
        };
        if is_do && cond.and_then(|c| c.eval_int()) == Some(0) {
            // `do { … } while (0)`: the body once.
            let j = self.stmt(&body)?;
            return Ok(Jumps {
                ret: j.ret,
                gotos: j.gotos,
                ..Jumps::none()
            });
        }
        let mut names = HashMap::new();
        Self::var_names(s, &mut names);
        // `while (i < n) { …; i += s; }`: a counted loop after all.
        let items = if body.kind() == K::COMPOUND {
            body.children()
        } else {
            vec![body]
        };
        if let Some((last, rest)) = items.split_last() {
            let mut assigned = HashSet::new();
            rest.iter().for_each(|it| self.assigned(it, &mut assigned));
            let counted = if is_do {
                // The first iteration runs unconditionally.
                let (env0, facts0, out0) = (self.env.clone(), self.facts.clone(), self.out.len());
                let j = self.block(&items)?;
                let shape = if j.any() == Cond::Bool(false) {
                    self.loop_shape(cond, Some(*last), &assigned)
                } else {
                    None
                };
                if shape.is_none() {
                    self.env = env0;
                    self.facts = facts0;
                    self.out.truncate(out0);
                }
                shape
            } else {
                self.loop_shape(cond, Some(*last), &assigned)
            };
            if let Some(shape) = counted {
                return self.counted_loop(s, shape, rest, &assigned, &names);
            }
        }
        let mut assigned = HashSet::new();
        self.assigned(s, &mut assigned);
        self.generic_loop(s, cond, &body, None, &assigned, &names, is_do)
    }

    /// A loop whose iterations cannot be counted: `for k in 0..n { if (cond)
    /// body }` with `n` a fresh thread-global unknown (every count is
    /// possible, so no iteration is lost) and the changing variables unknown.
    #[allow(clippy::too_many_arguments)]
    fn generic_loop(
        &mut self,
        s: &Node,
        cond: Option<Node>,
        body: &Node,
        inc: Option<Node>,
        assigned: &HashSet<String>,
        names: &HashMap<String, String>,
        is_do: bool,
    ) -> R<Jumps> {
        let loc = loc_of(s);
        self.forget(assigned, names);
        self.facts.clear();
        let var = self.name("iter");
        let bound = self.unknown_param("iterations");
        self.loop_vars.push(var.clone());
        let r = self.capture(|me| {
            let c = match cond {
                Some(c) if !is_do => me.cond(&c)?,
                _ => Cond::Bool(true),
            };
            let (j, b) = me.capture(|me| {
                me.path.push(c.clone());
                let j = me.stmt(body);
                me.path.pop();
                let j = j?;
                let stay = Cond::not(Cond::or(j.leaving(), j.brk.clone()));
                if let Some(i) = inc {
                    let (_, ib) = me.capture(|me| me.rvalue(&i))?;
                    me.emit_if(stay, ib, Stmt::skip(), loc);
                }
                if is_do {
                    if let Some(c) = cond {
                        me.cond(&c)?;
                    }
                }
                Ok(j)
            })?;
            // The exit test of a synchronized loop is left out: an unknown
            // count already covers every way the loop can end.
            let guard = if b.has_sync() { Cond::Bool(true) } else { c };
            me.emit_if(guard, b, Stmt::skip(), loc);
            Ok(j)
        });
        self.loop_vars.pop();
        let (j, b) = r?;
        self.emit(Stmt::For {
            var,
            lo: Expr::Int(0),
            hi: Expr::Var(bound),
            body: Box::new(b),
            loc,
        });
        self.facts.clear();
        self.forget(assigned, names);
        Ok(self.after_loop(j))
    }

    /// A `return` (or a `goto` past the loop) inside a loop may end the
    /// kernel at any iteration; after the loop, whether it did is unknown.
    fn after_loop(&mut self, j: Jumps) -> Jumps {
        let globals: Vec<String> = self.prog.params.clone();
        let flag = |me: &mut Self, c: &Cond, name: &str| {
            let v = if imp::is_uniform(&cond_vars(c), &globals) {
                Expr::Var(me.unknown_param(name))
            } else {
                me.local(name)
            };
            Cond::cmp(Rel::Ne, v, Expr::Int(0))
        };
        let ret = if j.ret == Cond::Bool(false) {
            Cond::Bool(false)
        } else {
            flag(self, &j.ret, "returned")
        };
        let gotos = j
            .gotos
            .iter()
            .map(|(l, c)| (l.clone(), flag(self, c, "jumped")))
            .collect();
        Jumps {
            ret,
            gotos,
            ..Jumps::none()
        }
    }

    fn loop_shape<'a>(
        &mut self,
        cond: Option<Node<'a>>,
        inc: Option<Node<'a>>,
        assigned: &HashSet<String>,
    ) -> Option<Shape<'a>> {
        let inc = strip(inc?);
        let (var, step) = if inc.kind() == K::UNARY {
            let target = var_key(exprs(&inc).first()?)?;
            match inc.unop() {
                op::PRE_INC | op::POST_INC => (target, Step::Add(Expr::Int(1))),
                op::PRE_DEC | op::POST_DEC => (target, Step::Sub(Expr::Int(1))),
                _ => return None,
            }
        } else if inc.kind() == K::COMPOUND_ASSIGN || inc.kind() == K::BINARY {
            let ch = exprs(&inc);
            let target = var_key(ch.first()?)?;
            let (o, amount) = if inc.kind() == K::COMPOUND_ASSIGN {
                (compound_base(inc.binop()), *ch.get(1)?)
            } else {
                if inc.binop() != op::ASSIGN {
                    return None;
                }
                let rhs = strip(*ch.get(1)?);
                if rhs.kind() != K::BINARY {
                    return None;
                }
                let rch = exprs(&rhs);
                if var_key(rch.first()?)? != target {
                    return None;
                }
                (rhs.binop(), *rch.get(1)?)
            };
            if mentions(&amount, assigned) {
                return None;
            }
            let amount = self.pure_int(&amount)?;
            let step = match o {
                op::ADD => Step::Add(amount),
                op::SUB => Step::Sub(amount),
                op::MUL => Step::Mul(amount),
                op::SHL => Step::Mul(Expr::bin(Op::Shl, Expr::Int(1), amount)),
                op::DIV => Step::Div(amount),
                op::SHR => Step::Div(Expr::bin(Op::Shl, Expr::Int(1), amount)),
                _ => return None,
            };
            (target, step)
        } else {
            return None;
        };
        if assigned.contains(&var) {
            return None;
        }
        let lo = match self.env.get(&var) {
            Some(Val::Int(e)) => e.clone(),
            _ => return None,
        };
        // The bound: `var REL bound` or `bound REL var`; the rest of a
        // conjunction stays a guard.
        let cond = without_invariants(strip(cond?));
        let (rel, bound, rest) = self.bound_of(&cond, &var, assigned)?;
        Some(Shape {
            var,
            lo,
            rel,
            bound,
            step,
            rest,
        })
    }

    fn bound_of<'a>(
        &mut self,
        c: &Node<'a>,
        var: &str,
        assigned: &HashSet<String>,
    ) -> Option<(Rel, Expr, Option<Node<'a>>)> {
        if c.kind() != K::BINARY {
            return None;
        }
        let ch = exprs(c);
        let (l, r) = (*ch.first()?, *ch.get(1)?);
        if c.binop() == op::LAND {
            let (rel, b, _) = self.bound_of(&strip(l), var, assigned)?;
            return Some((rel, b, Some(r)));
        }
        let rel = match c.binop() {
            op::LT => Rel::Lt,
            op::LE => Rel::Le,
            op::GT => Rel::Gt,
            op::GE => Rel::Ge,
            op::NE => Rel::Ne,
            _ => return None,
        };
        let flip = |r: Rel| match r {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        };
        if var_key(&l).as_deref() == Some(var) && !mentions(&r, assigned) {
            Some((rel, self.pure_int(&r)?, None))
        } else if var_key(&r).as_deref() == Some(var) && !mentions(&l, assigned) {
            Some((flip(rel), self.pure_int(&l)?, None))
        } else {
            None
        }
    }

    /// The value of an expression without memory accesses or calls.
    fn pure_int(&mut self, n: &Node) -> Option<Expr> {
        if has_effects(n) {
            return None;
        }
        let saved = self.out.len();
        let v = self.rvalue(n).ok()?;
        self.out.truncate(saved);
        match v {
            Val::Int(e) => Some(simplify(&e)),
            _ => None,
        }
    }

    fn counted_loop(
        &mut self,
        s: &Node,
        shape: Shape,
        body: &[Node],
        assigned: &HashSet<String>,
        names: &HashMap<String, String>,
    ) -> R<Jumps> {
        let loc = loc_of(s);
        if let Some(values) = constant_values(&shape) {
            return self.unrolled(shape, &values, body, loc);
        }
        let src_name = names.get(&shape.var).cloned().unwrap_or_else(|| "i".into());
        let v = self.name(&src_name);
        let mut others = assigned.clone();
        others.remove(&shape.var);
        self.forget(&others, names);
        self.facts.clear();
        self.env
            .insert(shape.var.clone(), Val::Int(Expr::Var(v.clone())));
        self.loop_vars.push(v.clone());
        let r = self.capture(|me| {
            let (j, b) = me.capture(|me| match shape.rest {
                Some(rest) => {
                    let c = me.cond(&rest)?;
                    me.branches(c, |me| me.block(body), |_| Ok(Jumps::none()), loc)
                }
                None => me.block(body),
            })?;
            me.emit(b);
            Ok(j)
        });
        self.loop_vars.pop();
        let (j, mut b) = r?;
        let synced = b.has_sync();
        if let (Step::Add(Expr::Int(1)), false) = (&shape.step, synced) {
            // Iteration `v` runs only if no earlier one broke out.
            if let Some(g) = no_earlier_break(&j.brk, &v, &shape.lo) {
                b = Stmt::If {
                    cond: g,
                    then: Box::new(b),
                    els: Box::new(Stmt::skip()),
                    loc,
                };
            }
        }

        let (lo, bound) = (shape.lo.clone(), shape.bound.clone());
        let vv = Expr::Var(v.clone());
        let stmt = match &shape.step {
            Step::Add(st) | Step::Sub(st) => {
                let up = matches!(shape.step, Step::Add(_));
                // The last value the loop may take (inclusive) and the count.
                let (hi_excl, lo_incl) = match (up, shape.rel) {
                    (true, Rel::Lt | Rel::Ne) => (bound.clone(), None),
                    (true, Rel::Le) => (Expr::add(bound.clone(), Expr::Int(1)), None),
                    (false, Rel::Gt | Rel::Ne) => {
                        (Expr::Int(0), Some(Expr::add(bound.clone(), Expr::Int(1))))
                    }
                    (false, Rel::Ge) => (Expr::Int(0), Some(bound.clone())),
                    _ => return self.fallback_counted(s, b, j, &v, loc),
                };
                if *st == Expr::Int(1) && (up || !synced) {
                    let (l, h) = if up {
                        (lo.clone(), hi_excl)
                    } else {
                        (
                            lo_incl.clone().unwrap_or(Expr::Int(0)),
                            Expr::add(lo.clone(), Expr::Int(1)),
                        )
                    };
                    Stmt::For {
                        var: v.clone(),
                        lo: simplify(&l),
                        hi: simplify(&h),
                        body: Box::new(b),
                        loc,
                    }
                } else if !synced && !matches!(st, Expr::Int(_)) {
                    // A stride only known at run time (a grid-stride loop,
                    // `i += blockDim.x * gridDim.x`): iteration `k` visits
                    // `lo ± k*step`, so the index stays a polynomial whose
                    // digits the solver's mixed-radix lemmas see.
                    let k = self.name(&format!("{src_name}#k"));
                    let kv = Expr::bin(Op::Mul, Expr::var(&k), st.clone());
                    let (value, inside, span) = if up {
                        let value = Expr::add(lo.clone(), kv);
                        let inside = Cond::cmp(Rel::Lt, value.clone(), hi_excl.clone());
                        (value, inside, Expr::sub(hi_excl, lo.clone()))
                    } else {
                        let floor = lo_incl.clone().unwrap_or(Expr::Int(0));
                        let value = Expr::sub(lo.clone(), kv);
                        let inside = Cond::cmp(Rel::Ge, value.clone(), floor.clone());
                        (
                            value,
                            inside,
                            Expr::add(Expr::sub(lo.clone(), floor), Expr::Int(1)),
                        )
                    };
                    let value = simplify(&value);
                    Stmt::For {
                        var: k,
                        lo: Expr::Int(0),
                        hi: simplify(&span),
                        body: Box::new(Stmt::If {
                            cond: imp::simplify_cond(&inside),
                            then: Box::new(b.subst(&v, &value)),
                            els: Box::new(Stmt::skip()),
                            loc,
                        }),
                        loc,
                    }
                } else if !synced {
                    let (l, h, dist) = if up {
                        (lo.clone(), hi_excl, Expr::sub(vv.clone(), lo.clone()))
                    } else {
                        (
                            lo_incl.clone().unwrap_or(Expr::Int(0)),
                            Expr::add(lo.clone(), Expr::Int(1)),
                            Expr::sub(lo.clone(), vv.clone()),
                        )
                    };
                    let guard = Cond::cmp(
                        Rel::Eq,
                        simplify(&Expr::bin(Op::Mod, dist, st.clone())),
                        Expr::Int(0),
                    );
                    let body = Stmt::If {
                        cond: guard,
                        then: Box::new(b),
                        els: Box::new(Stmt::skip()),
                        loc,
                    };
                    Stmt::For {
                        var: v.clone(),
                        lo: simplify(&l),
                        hi: simplify(&h),
                        body: Box::new(body),
                        loc,
                    }
                } else {
                    // Iterations in source order: `v = lo ± k*step`.
                    let k = self.name(&format!("{src_name}#k"));
                    let span = if up {
                        Expr::sub(hi_excl, lo.clone())
                    } else {
                        Expr::sub(
                            Expr::add(lo.clone(), Expr::Int(1)),
                            lo_incl.clone().unwrap_or(Expr::Int(0)),
                        )
                    };
                    let count = Expr::bin(
                        Op::Div,
                        Expr::add(span, Expr::sub(st.clone(), Expr::Int(1))),
                        st.clone(),
                    );
                    let kv = Expr::bin(Op::Mul, Expr::var(&k), st.clone());
                    let value = if up {
                        Expr::add(lo.clone(), kv)
                    } else {
                        Expr::sub(lo.clone(), kv)
                    };
                    Stmt::For {
                        var: k,
                        lo: Expr::Int(0),
                        hi: simplify(&count),
                        body: Box::new(b.subst(&v, &simplify(&value))),
                        loc,
                    }
                }
            }
            Step::Mul(st) | Step::Div(st) => {
                let up = matches!(shape.step, Step::Mul(_));
                let (l, h) = match (up, shape.rel) {
                    (true, Rel::Lt | Rel::Ne) => (lo.clone(), bound.clone()),
                    (true, Rel::Le) => (lo.clone(), Expr::add(bound.clone(), Expr::Int(1))),
                    (false, Rel::Gt | Rel::Ne) => (
                        Expr::add(bound.clone(), Expr::Int(1)),
                        Expr::add(lo.clone(), Expr::Int(1)),
                    ),
                    (false, Rel::Ge) => (bound.clone(), Expr::add(lo.clone(), Expr::Int(1))),
                    _ => return self.fallback_counted(s, b, j, &v, loc),
                };
                if !synced {
                    // Every value of the range, or only powers of two when
                    // the loop provably visits exactly those.
                    let pow2 = *st == Expr::Int(2)
                        && match &lo {
                            Expr::Int(x) => (up && *x == 1) || (!up && *x > 0 && x & (x - 1) == 0),
                            _ => false,
                        };
                    let body = if pow2 {
                        let c = Cond::cmp(
                            Rel::Eq,
                            Expr::bin(Op::BitAnd, vv.clone(), Expr::sub(vv.clone(), Expr::Int(1))),
                            Expr::Int(0),
                        );
                        Stmt::If {
                            cond: c,
                            then: Box::new(b),
                            els: Box::new(Stmt::skip()),
                            loc,
                        }
                    } else {
                        b
                    };
                    Stmt::For {
                        var: v.clone(),
                        lo: simplify(&l),
                        hi: simplify(&h),
                        body: Box::new(body),
                        loc,
                    }
                } else if barrier_at_edge(&b) {
                    // Extra values between two real iterations only add
                    // barriers where the body already has one at its edge,
                    // so no interval of the real loop is cut.
                    if up {
                        Stmt::For {
                            var: v.clone(),
                            lo: simplify(&l),
                            hi: simplify(&h),
                            body: Box::new(b),
                            loc,
                        }
                    } else {
                        let k = self.name(&format!("{src_name}#k"));
                        let value = simplify(&Expr::sub(
                            Expr::sub(h.clone(), Expr::Int(1)),
                            Expr::var(&k),
                        ));
                        Stmt::For {
                            var: k,
                            lo: Expr::Int(0),
                            hi: simplify(&Expr::sub(h, l)),
                            body: Box::new(b.subst(&v, &value)),
                            loc,
                        }
                    }
                } else {
                    return self.fallback_counted(s, b, j, &v, loc);
                }
            }
        };
        self.emit(stmt);
        self.facts.clear();
        let mut all = others;
        all.insert(shape.var.clone());
        self.forget(&all, names);
        Ok(self.after_loop(j))
    }

    /// A loop over a few known values, one copy of the body per value with
    /// the state carried from copy to copy: exact, breaks included.
    fn unrolled(&mut self, shape: Shape, values: &[i64], body: &[Node], loc: Loc) -> R<Jumps> {
        self.facts.clear();
        let mut left = Cond::Bool(false);
        let mut ret = Cond::Bool(false);
        let mut gotos = Jumps::none();
        for x in values {
            self.env.insert(shape.var.clone(), Val::Int(Expr::Int(*x)));
            let mut inner = Jumps::none();
            let slot = &mut inner;
            self.branches(
                Cond::not(left.clone()),
                |me| {
                    let j = match shape.rest {
                        Some(rest) => {
                            let c = me.cond(&rest)?;
                            me.branches(c, |me| me.block(body), |_| Ok(Jumps::none()), loc)?
                        }
                        None => me.block(body)?,
                    };
                    *slot = j.clone();
                    Ok(j)
                },
                |_| Ok(Jumps::none()),
                loc,
            )?;
            // `left ∨ (¬left ∧ b)` is `left ∨ b`: keep the conditions linear.
            ret = Cond::or(ret, Cond::and(Cond::not(left.clone()), inner.ret.clone()));
            let landed = Jumps {
                gotos: inner.gotos.clone(),
                ..Jumps::none()
            };
            gotos = gotos.or(landed.under(&Cond::not(left.clone())));
            left = Cond::or(left, Cond::or(inner.brk.clone(), inner.leaving()));
        }
        self.facts.clear();
        let after = match values.last() {
            Some(x) => match &shape.step {
                Step::Add(Expr::Int(st)) => Val::Int(Expr::Int(x + st)),
                Step::Sub(Expr::Int(st)) => Val::Int(Expr::Int(x - st)),
                Step::Mul(f) => Val::Int(simplify(&Expr::bin(Op::Mul, Expr::Int(*x), f.clone()))),
                Step::Div(f) => Val::Int(simplify(&Expr::bin(Op::Div, Expr::Int(*x), f.clone()))),
                _ => Val::Unknown,
            },
            None => Val::Int(shape.lo.clone()),
        };
        self.env.insert(shape.var.clone(), after);
        Ok(Jumps {
            ret,
            gotos: gotos.gotos,
            ..Jumps::none()
        })
    }

    /// A synchronized loop we cannot count exactly: an unknown number of
    /// iterations, and the loop variable a fresh unknown.
    fn fallback_counted(&mut self, s: &Node, b: Stmt, j: Jumps, v: &str, loc: Loc) -> R<Jumps> {
        let var = self.name("iter");
        let bound = self.unknown_param("iterations");
        let unknown = self.local(v);
        let _ = s;
        self.emit(Stmt::For {
            var,
            lo: Expr::Int(0),
            hi: Expr::Var(bound),
            body: Box::new(b.subst(v, &unknown)),
            loc,
        });
        self.facts.clear();
        Ok(self.after_loop(j))
    }

    fn switch_stmt(&mut self, s: &Node) -> R<Jumps> {
        let ch = s.children();
        let (Some(scrut), Some(body)) = (ch.first(), ch.last()) else {
            return unsupported(s, "malformed switch");
        };
        let v = self.int(scrut, "switch")?;
        // Flatten into segments: (labels, statements).
        let mut segs: Vec<(Vec<Option<Expr>>, Vec<Node>)> = Vec::new();
        let items = if body.kind() == K::COMPOUND {
            body.children()
        } else {
            vec![*body]
        };
        for it in items {
            let mut it = it;
            let mut labels = Vec::new();
            loop {
                let k = it.kind();
                if k == K::CASE {
                    let c = it.children();
                    let val = c.first().and_then(|e| e.eval_int()).map(Expr::Int);
                    let Some(val) = val else {
                        return unsupported(&it, "case label that is not a constant");
                    };
                    labels.push(Some(val));
                    match c.last() {
                        Some(n) if c.len() >= 2 => it = *n,
                        _ => break,
                    }
                } else if k == K::DEFAULT {
                    labels.push(None);
                    match it.children().last() {
                        Some(n) => it = *n,
                        None => break,
                    }
                } else {
                    break;
                }
            }
            let is_label_only = it.kind() == K::CASE || it.kind() == K::DEFAULT;
            if !labels.is_empty() || segs.is_empty() {
                segs.push((labels, Vec::new()));
            }
            if !is_label_only {
                if let Some(last) = segs.last_mut() {
                    last.1.push(it);
                }
            }
        }
        let cases: Vec<Expr> = segs
            .iter()
            .flat_map(|(l, _)| l.iter().flatten().cloned())
            .collect();
        let no_case = Cond::not(Cond::Bool(false).clone());
        let no_case = cases.iter().fold(no_case, |acc, c| {
            Cond::and(acc, Cond::cmp(Rel::Ne, v.clone(), c.clone()))
        });
        let mut running = Cond::Bool(false);
        let mut out = Jumps::none();
        for (labels, stmts) in segs {
            let entry = labels.iter().fold(Cond::Bool(false), |acc, l| {
                Cond::or(
                    acc,
                    match l {
                        Some(c) => Cond::cmp(Rel::Eq, v.clone(), c.clone()),
                        None => no_case.clone(),
                    },
                )
            });
            let runs = Cond::or(entry, running);
            let j = self.branches(
                runs.clone(),
                |me| me.block(&stmts),
                |_| Ok(Jumps::none()),
                loc_of(s),
            )?;
            running = Cond::and(runs, Cond::not(j.any()));
            out = out.or(Jumps {
                brk: Cond::Bool(false),
                ..j
            });
        }
        Ok(out)
    }

    // ---------------------------------------------------------------- expressions

    fn cond(&mut self, n: &Node) -> R<Cond> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(n, "code nested too deeply")
        } else {
            self.cond_at(n)
        };
        self.depth -= 1;
        r
    }

    fn cond_at(&mut self, n: &Node) -> R<Cond> {
        let n = strip(*n);
        let k = n.kind();
        if k == K::BINARY {
            let ch = exprs(&n);
            if ch.len() == 2 {
                let rel = match n.binop() {
                    op::LT => Some(Rel::Lt),
                    op::LE => Some(Rel::Le),
                    op::GT => Some(Rel::Gt),
                    op::GE => Some(Rel::Ge),
                    op::EQ => Some(Rel::Eq),
                    op::NE => Some(Rel::Ne),
                    _ => None,
                };
                if let Some(rel) = rel {
                    let (a, b) = (self.rvalue(&ch[0])?, self.rvalue(&ch[1])?);
                    return Ok(imp::simplify_cond(&match (a, b) {
                        (Val::Int(a), Val::Int(b)) if !too_big(&a) && !too_big(&b) => {
                            Cond::cmp(rel, simplify(&a), simplify(&b))
                        }
                        (a, b) => {
                            let a = self.materialize(a, &hint_of(&ch[0]));
                            let b = self.materialize(b, &hint_of(&ch[1]));
                            Cond::cmp(rel, a, b)
                        }
                    }));
                }
                match n.binop() {
                    op::LAND => {
                        let a = self.cond(&ch[0])?;
                        let (b, buf) = self.capture(|me| {
                            me.path.push(a.clone());
                            let r = me.cond(&ch[1]);
                            me.path.pop();
                            r
                        })?;
                        self.emit_if(a.clone(), buf, Stmt::skip(), loc_of(&n));
                        return Ok(Cond::and(a, b));
                    }
                    op::LOR => {
                        let a = self.cond(&ch[0])?;
                        let (b, buf) = self.capture(|me| {
                            me.path.push(Cond::not(a.clone()));
                            let r = me.cond(&ch[1]);
                            me.path.pop();
                            r
                        })?;
                        self.emit_if(Cond::not(a.clone()), buf, Stmt::skip(), loc_of(&n));
                        return Ok(Cond::or(a, b));
                    }
                    _ => {}
                }
            }
        }
        if k == K::UNARY && n.unop() == op::LNOT {
            if let Some(c) = exprs(&n).first() {
                return Ok(Cond::not(self.cond(c)?));
            }
        }
        let v = self.rvalue(&n)?;
        Ok(match v {
            Val::Int(e) => as_cond(&simplify(&e)),
            // A pointer in a condition: null checks; any outcome is possible.
            _ => {
                let e = self.local(&hint_of(&n));
                as_cond(&e)
            }
        })
    }

    fn rvalue(&mut self, n: &Node) -> R<Val> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(n, "code nested too deeply")
        } else {
            self.rvalue_at(n)
        };
        self.depth -= 1;
        r
    }

    fn rvalue_at(&mut self, n: &Node) -> R<Val> {
        let k = n.kind();
        if k == K::PAREN
            || (k == K::UNEXPOSED && exprs(n).len() == 1)
            || k == K::C_CAST
            || k == K::STATIC_CAST
            || k == K::FUNCTIONAL_CAST
            || k == K::REINTERPRET_CAST
            || k == K::CONST_CAST
        {
            let inner = exprs(n);
            let Some(inner) = inner.last() else {
                return Ok(Val::Unknown);
            };
            let v = self.rvalue(inner)?;
            // A cast to an integer of a non-integer value stays unknown.
            return Ok(match v {
                Val::Ptr(p)
                    if !n.ty().is_pointer() && !n.ty().is_array() && !n.ty().is_dependent() =>
                {
                    let _ = p;
                    Val::Unknown
                }
                Val::Ptr(p) => Val::Ptr(p.viewed_as(n.ty())),
                v => v,
            });
        }
        // Constants clang can fold: literals, `constexpr` and enumerators,
        // `sizeof`. Operators on constants fold in `simplify`, which keeps
        // this linear in the size of an expression.
        let ty = n.ty();
        let leaf = k == K::INT_LIT
            || k == K::CHAR_LIT
            || k == K::BOOL_LIT
            || k == K::UNARY_EXPR
            || k == K::DECL_REF
            || k == K::MEMBER_REF;
        if leaf && (ty.is_integral() || k != K::DECL_REF) {
            if let Some(v) = n.eval_int() {
                return Ok(Val::Int(Expr::Int(v)));
            }
        }
        if k == K::UNARY_EXPR && ty.is_integral() {
            // `sizeof(T)` for a template parameter `T`: unknown here, but
            // the same in every thread (a loop bound `size / sizeof(T)` is
            // uniform).
            // By declaration: `T` of two templates may be two types.
            let key: Vec<String> = n
                .children()
                .iter()
                .map(|c| {
                    c.type_declaration()
                        .map(|d| key(&d))
                        .unwrap_or_else(|| c.ty().spelling())
                })
                .collect();
            let key = key.join(",");
            let name = match self.sizes.get(&key) {
                Some(name) => name.clone(),
                None => {
                    let name = self.unknown_param("size_of");
                    self.sizes.insert(key, name.clone());
                    name
                }
            };
            return Ok(Val::Int(Expr::var(&name)));
        }
        if k == K::INT_LIT || k == K::CHAR_LIT || k == K::BOOL_LIT {
            return Ok(Val::Unknown);
        }
        if k == K::FLOAT_LIT || k == K::STRING_LIT || k == K::NULLPTR || k == K::GNU_NULL {
            return Ok(Val::Unknown);
        }
        if k == K::DECL_REF || k == K::MEMBER_REF || k == K::ARRAY_SUBSCRIPT {
            if let Some(b) = self.builtin(n) {
                return Ok(Val::Int(b));
            }
            if k == K::DECL_REF {
                if let Some(d) = n.referenced() {
                    let dk = d.kind();
                    if dk == K::ENUM_CONSTANT {
                        return Ok(d
                            .eval_int()
                            .map(|v| Val::Int(Expr::Int(v)))
                            .unwrap_or(Val::Unknown));
                    }
                    if dk == K::FUNCTION || dk == K::FUNCTION_TEMPLATE || dk == K::METHOD {
                        return Ok(Val::Unknown);
                    }
                }
            }
            if n.ty().is_array() {
                // An array decays to a pointer to its first element.
                return Ok(match self.lvalue(n)? {
                    LVal::Mem(p) => Val::Ptr(p),
                    LVal::Var(v) => self.env.get(&v).cloned().unwrap_or(Val::Unknown),
                    LVal::Unknown => Val::Unknown,
                });
            }
            return self.load(n);
        }
        if k == K::BINARY || k == K::COMPOUND_ASSIGN {
            return self.binary(n);
        }
        if k == K::UNARY {
            return self.unary(n);
        }
        if k == K::CONDITIONAL {
            let ch = exprs(n);
            if ch.len() != 3 {
                return Ok(Val::Unknown);
            }
            let c = self.cond(&ch[0])?;
            let (a, ba) = self.capture(|me| me.rvalue(&ch[1]))?;
            let (b, bb) = self.capture(|me| me.rvalue(&ch[2]))?;
            self.emit_if(c.clone(), ba, bb, loc_of(n));
            return Ok(match (a, b) {
                (Val::Int(a), Val::Int(b)) if too_big(&a) || too_big(&b) => Val::Unknown,
                (Val::Int(a), Val::Int(b)) => {
                    Val::Int(Expr::Ite(Box::new(c), Box::new(a), Box::new(b)))
                }
                (a, b) if a == b => a,
                _ => Val::Unknown,
            });
        }
        if k == K::CALL {
            return self.call(n);
        }
        if k == K::LAMBDA {
            return Ok(Val::Unknown);
        }
        if k == K::STMT_EXPR {
            return unsupported(n, "statement expression");
        }
        if k == K::NEW || k == K::DELETE || k == K::THROW {
            return unsupported(n, "dynamic allocation or exceptions in device code");
        }
        // Anything else: evaluate sub-expressions for their accesses.
        for c in exprs(n) {
            self.rvalue(&c)?;
        }
        Ok(Val::Unknown)
    }

    /// `threadIdx.x` and friends.
    fn builtin(&self, n: &Node) -> Option<Expr> {
        if n.kind() != K::MEMBER_REF {
            return None;
        }
        let base = strip(*exprs(n).first()?);
        if base.kind() != K::DECL_REF {
            return None;
        }
        let mut field = n.spelling();
        if field.is_empty() {
            // clang's own headers make `threadIdx.x` a property reference,
            // which libclang does not name; read it from the tokens.
            let toks = n.tokens();
            if toks.len() >= 3 && toks[0].0 == base.spelling() && toks[1].0 == "." {
                field = toks[2].0.clone();
            }
        }
        let d = match field.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return None,
        };
        let b = base.referenced()?;
        let ty = b.ty().spelling();
        if !(ty.contains("__cuda_builtin_") || b.pos().file.starts_with(super::prelude::DIR)) {
            return None;
        }
        let name = match base.spelling().as_str() {
            "threadIdx" => builtin::TID[d],
            "blockIdx" => builtin::BID[d],
            "blockDim" => builtin::BLOCK_DIM[d],
            "gridDim" => builtin::GRID_DIM[d],
            _ => return None,
        };
        Some(Expr::var(name))
    }

    fn load(&mut self, n: &Node) -> R<Val> {
        match self.lvalue(n)? {
            LVal::Var(v) => Ok(self.env.get(&v).cloned().unwrap_or(Val::Unknown)),
            LVal::Mem(p) => {
                let v = self.read(&p, loc_of(n));
                Ok(match self.loaded_pointer(n, &p) {
                    Some(q) => Val::Ptr(q),
                    None => v,
                })
            }
            LVal::Unknown => Ok(Val::Unknown),
        }
    }

    /// A pointer read from global memory (`float *row = rows[blockIdx.x]`,
    /// `elem->name`): the buffer it points to, as an array of its own named
    /// after where the pointer is kept, with the pointer's cell as its first
    /// index. Threads that read one cell share the buffer; the buffers of
    /// different cells are taken to be apart, as pointer parameters are.
    fn loaded_pointer(&mut self, n: &Node, p: &Ptr) -> Option<Ptr> {
        let ty = n.ty();
        let Target::Shared(base) = &p.target else {
            return None;
        };
        let global = self
            .prog
            .arrays
            .iter()
            .any(|a| a.name == *base && a.scope == Scope::Global);
        if !ty.is_pointer() || !global {
            return None;
        }
        let m = strip(*n);
        let name = if m.kind() == K::MEMBER_REF {
            format!("{base}.{}", m.spelling())
        } else {
            format!("{base}[]")
        };
        self.add_array(&name, Scope::Global, loc_of(n));
        let mut index = if p.index.is_empty() {
            vec![Expr::Int(0)]
        } else {
            p.index.iter().map(simplify).collect()
        };
        index.push(Expr::Int(0));
        Some(Ptr::of_cells(Target::Shared(name), index, cell_type(ty)))
    }

    fn store(&mut self, lv: &LVal, v: Val, loc: Loc) {
        match lv {
            LVal::Var(k) => {
                let v = match v {
                    Val::Uniform | Val::Stored(..) => Val::Int(self.materialize(v, "uniform")),
                    v => v,
                };
                self.env.insert(k.clone(), v);
            }
            LVal::Mem(p) => self.write(p, &v, loc),
            LVal::Unknown => {}
        }
    }

    fn var_lvalue(&mut self, d: &Node) -> R<LVal> {
        let k = key(d);
        if let Some(a) = self.aliases.get(&k) {
            if let Some(inner) = a.strip_prefix('*') {
                if let Some(Val::Ptr(p)) = self.env.get(inner) {
                    return Ok(LVal::Mem(p.clone()));
                }
                return Ok(LVal::Unknown);
            }
            return Ok(LVal::Var(a.clone()));
        }
        // Variables declared outside every function live in `globals`, out
        // of reach of branch merges.
        if let Some(g) = self.globals.get(&k) {
            return Ok(match g {
                Val::Ptr(p) => LVal::Mem(p.clone()),
                v => {
                    if !self.env.contains_key(&k) {
                        self.env.insert(k.clone(), v.clone());
                    }
                    LVal::Var(k)
                }
            });
        }
        if d.kind() == K::NON_TYPE_TEMPLATE_PARAM && !self.env.contains_key(&k) {
            // A value parameter of an inlined function template called from
            // a template pattern (`load<8, T2>(…)`): its argument is not
            // visible here, but it is one value for every thread.
            let v = Val::Int(Expr::var(&self.unknown_param(&d.spelling())));
            self.globals.insert(k.clone(), v.clone());
            self.env.insert(k.clone(), v);
            return Ok(LVal::Var(k));
        }
        if self.env.contains_key(&k) {
            // Shared scalars and arrays are memory, not values.
            if let Some(Val::Ptr(p)) = self.env.get(&k) {
                if d.has_attr(K::CUDA_SHARED) {
                    return Ok(LVal::Mem(p.clone()));
                }
            }
            return Ok(LVal::Var(k));
        }
        let global = d.kind() == K::VAR
            && d.semantic_parent()
                .map(|p| p.kind() != K::FUNCTION)
                .unwrap_or(true);
        if !global {
            return Ok(LVal::Var(k));
        }
        let name = d.spelling();
        let shared = d.has_attr(K::CUDA_SHARED);
        let device = d.has_attr(K::CUDA_DEVICE) || d.has_attr(K::CUDA_CONSTANT);
        let constant = d.has_attr(K::CUDA_CONSTANT) || d.ty().is_const_qualified();
        let g = if (shared || device) && !constant {
            self.add_array(
                &name,
                if shared { Scope::Shared } else { Scope::Global },
                loc_of(d),
            );
            let index = if d.ty().is_array() {
                vec![]
            } else {
                vec![Expr::Int(0)]
            };
            Val::Ptr(Ptr::of_cells(
                Target::Shared(name),
                index,
                cell_type(d.ty()),
            ))
        } else if d.ty().is_array() {
            // A read-only table (`__constant__`, `const`): its cells never
            // race; a cell's value is unknown but the same in every thread.
            Val::Ptr(Ptr::new(Target::ReadOnly(name), vec![]))
        } else {
            match d.eval_int() {
                Some(v) => Val::Int(Expr::Int(v)),
                // A `__constant__` (or `const`) integer the host sets: not
                // known here, but one value for every thread, like a
                // parameter.
                None if d.ty().is_integral() => Val::Int(Expr::var(&self.unknown_param(&name))),
                None if d.ty().is_floating() => Val::Uniform,
                None => Val::Unknown,
            }
        };
        self.globals.insert(k.clone(), g);
        self.var_lvalue(d)
    }

    fn lvalue(&mut self, n: &Node) -> R<LVal> {
        let n = strip(*n);
        let k = n.kind();
        if k == K::DECL_REF {
            let Some(d) = n.referenced() else {
                return Ok(LVal::Unknown);
            };
            return self.var_lvalue(&d);
        }
        if k == K::ARRAY_SUBSCRIPT {
            let ch = exprs(&n);
            if ch.len() != 2 {
                return Ok(LVal::Unknown);
            }
            let (base, idx) = (ch[0], ch[1]);
            let base_is_array = strip(base).ty().is_array();
            let p = self.pointer(&base)?;
            let i = self.int(&idx, "index")?;
            return Ok(match p {
                Some(mut p) => {
                    if base_is_array {
                        p.index.push(i);
                    } else {
                        let Some(i) = p.cell_of(i) else {
                            return unsupported(&n, "a subscript through a pointer that views the array in elements of another size");
                        };
                        p.advance(Op::Add, i);
                    }
                    LVal::Mem(p)
                }
                None => return unsupported(&n, "access through a pointer of unknown origin"),
            });
        }
        if k == K::UNARY && n.unop() == op::DEREF {
            let Some(inner) = exprs(&n).into_iter().next() else {
                return Ok(LVal::Unknown);
            };
            return match self.pointer(&inner)? {
                Some(mut p) => {
                    if p.index.is_empty() {
                        p.index.push(Expr::Int(0));
                    }
                    Ok(LVal::Mem(p))
                }
                None => unsupported(&n, "access through a pointer of unknown origin"),
            };
        }
        if k == K::MEMBER_REF {
            let field = n.spelling();
            let Some(base) = exprs(&n).into_iter().next() else {
                return Ok(LVal::Unknown);
            };
            let base = strip(base);
            if base.ty().is_pointer() {
                // `p->f`: an access to the element `p` points at.
                return match self.pointer(&base)? {
                    Some(mut p) => {
                        if p.index.is_empty() {
                            p.index.push(Expr::Int(0));
                        }
                        Ok(LVal::Mem(p))
                    }
                    None => unsupported(&n, "access through a pointer of unknown origin"),
                };
            }
            return Ok(match self.lvalue(&base)? {
                LVal::Var(v) => {
                    let fk = format!("{v}.{field}");
                    if !self.env.contains_key(&fk) {
                        // A field of a kernel parameter passed by value is
                        // the same for every thread.
                        // Nested structs (`A.s.p`): the path down to the
                        // parameter.
                        let mut root = base;
                        let mut path = vec![field.clone()];
                        while root.kind() == K::MEMBER_REF {
                            path.push(root.spelling());
                            match exprs(&root).first() {
                                Some(b) if !strip(*b).ty().is_pointer() => root = strip(*b),
                                _ => break,
                            }
                        }
                        let is_param = root.kind() == K::DECL_REF
                            && root
                                .referenced()
                                .map(|d| d.kind() == K::PARM)
                                .unwrap_or(false)
                            && self.stack.len() == 1;
                        path.push(root.spelling());
                        path.reverse();
                        let qualified = path.join(".");
                        if is_param && n.ty().is_integral() {
                            let name = self.param(&qualified);
                            self.env.insert(fk.clone(), Val::Int(Expr::Var(name)));
                        } else if is_param && (n.ty().is_pointer() || n.ty().is_array()) {
                            let name = qualified;
                            self.add_array(&name, Scope::Global, loc_of(&n));
                            self.env.insert(
                                fk.clone(),
                                Val::Ptr(Ptr::of_cells(
                                    Target::Shared(name),
                                    vec![],
                                    cell_type(n.ty()),
                                )),
                            );
                        }
                    }
                    LVal::Var(fk)
                }
                // A field of an array element is an access to the element.
                other => other,
            });
        }
        if k == K::CALL || k == K::CONDITIONAL || k == K::BINARY {
            self.rvalue(&n)?;
            return Ok(LVal::Unknown);
        }
        Ok(LVal::Unknown)
    }

    /// The array and index a pointer-valued expression denotes.
    /// The pointer `n` evaluates to, seen through `n`'s own type (a cast
    /// around it changes the size of its elements).
    fn pointer(&mut self, n: &Node) -> R<Option<Ptr>> {
        let ty = n.ty();
        let p = self.pointer_at(n)?;
        Ok(p.map(|p| p.viewed_as(ty)))
    }

    fn pointer_at(&mut self, n: &Node) -> R<Option<Ptr>> {
        let n = strip(*n);
        let k = n.kind();
        if k == K::DECL_REF || k == K::MEMBER_REF || k == K::ARRAY_SUBSCRIPT {
            if n.ty().is_array() {
                return Ok(match self.lvalue(&n)? {
                    LVal::Mem(p) => Some(p),
                    LVal::Var(v) => match self.env.get(&v) {
                        Some(Val::Ptr(p)) => Some(p.clone()),
                        _ => None,
                    },
                    LVal::Unknown => None,
                });
            }
            return Ok(match self.rvalue(&n)? {
                Val::Ptr(p) => Some(p),
                _ => None,
            });
        }
        if k == K::UNARY && n.unop() == op::ADDR_OF {
            let Some(inner) = exprs(&n).into_iter().next() else {
                return Ok(None);
            };
            return Ok(match self.lvalue(&inner)? {
                LVal::Mem(p) => Some(p),
                LVal::Var(v) => {
                    // `&x` of a local: a private cell named after the variable.
                    Some(Ptr::new(Target::Private(v), vec![Expr::Int(0)]))
                }
                LVal::Unknown => None,
            });
        }
        Ok(match self.rvalue(&n)? {
            Val::Ptr(p) => Some(p),
            _ => None,
        })
    }

    fn binary(&mut self, n: &Node) -> R<Val> {
        let ch = exprs(n);
        if ch.len() != 2 {
            return Ok(Val::Unknown);
        }
        let o = n.binop();
        let loc = loc_of(n);
        if o == op::ASSIGN || n.kind() == K::COMPOUND_ASSIGN {
            let lv = self.lvalue(&ch[0])?;
            let hint = match &lv {
                LVal::Var(_) => strip(ch[0]).spelling(),
                _ => "v".into(),
            };
            let rhs = self.rvalue(&ch[1])?;
            let v = if o == op::ASSIGN {
                rhs
            } else {
                let cur = match &lv {
                    LVal::Var(v) => self.env.get(v).cloned().unwrap_or(Val::Unknown),
                    LVal::Mem(p) => self.read(p, loc),
                    LVal::Unknown => Val::Unknown,
                };
                self.arith(compound_base(o), cur, rhs)
            };
            let v = match (&lv, v) {
                (LVal::Var(_), Val::Unknown) if strip(ch[0]).ty().is_integral() => {
                    Val::Int(self.local(&hint))
                }
                (_, v) => v,
            };
            self.store(&lv, v.clone(), loc);
            return Ok(v);
        }
        match o {
            op::LT | op::LE | op::GT | op::GE | op::EQ | op::NE | op::LAND | op::LOR => {
                let c = self.cond(n)?;
                Ok(Val::Int(of_cond(c)))
            }
            op::COMMA => {
                self.rvalue(&ch[0])?;
                self.rvalue(&ch[1])
            }
            _ => {
                let a = self.rvalue(&ch[0])?;
                let b = self.rvalue(&ch[1])?;
                Ok(self.arith(o, a, b))
            }
        }
    }

    fn arith(&mut self, o: i32, a: Val, b: Val) -> Val {
        let int = |me: &mut Self, v: Val| match v {
            Val::Stored(..) => Val::Int(me.materialize(v, "stored")),
            v => v,
        };
        let (a, b) = (int(self, a), int(self, b));
        let bop = match o {
            op::ADD => Op::Add,
            op::SUB => Op::Sub,
            op::MUL => Op::Mul,
            op::DIV => Op::Div,
            op::REM => Op::Mod,
            op::SHL => Op::Shl,
            op::SHR => Op::Shr,
            op::AND => Op::BitAnd,
            op::OR => Op::BitOr,
            op::XOR => Op::BitXor,
            _ => return Val::Unknown,
        };
        match (a, b) {
            // Values computed in long chains (hash rounds, unrolled
            // mixing) would grow without bound as expressions: past a size
            // they are unknowns, which is sound.
            (Val::Uniform, Val::Uniform) => Val::Uniform,
            (Val::Uniform, b @ Val::Int(_)) => {
                let a = Val::Int(self.materialize(Val::Uniform, "uniform"));
                self.arith(o, a, b)
            }
            (a @ Val::Int(_), Val::Uniform) => {
                let b = Val::Int(self.materialize(Val::Uniform, "uniform"));
                self.arith(o, a, b)
            }
            (Val::Int(a), Val::Int(b)) if too_big(&a) || too_big(&b) => Val::Unknown,
            (Val::Int(a), Val::Int(b)) => Val::Int(simplify(&Expr::bin(bop, a, b))),
            // Pointer arithmetic moves the last index; by an offset drfscan
            // cannot compute (a key read from memory), to a cell of its own.
            (Val::Ptr(p), Val::Int(i)) if bop == Op::Add || bop == Op::Sub => p.moved(bop, i),
            (Val::Int(i), Val::Ptr(p)) if bop == Op::Add => p.moved(Op::Add, i),
            (Val::Ptr(p), Val::Unknown) if bop == Op::Add || bop == Op::Sub => {
                let i = self.local("offset");
                p.moved(bop, i)
            }
            (Val::Unknown, Val::Ptr(p)) if bop == Op::Add => {
                let i = self.local("offset");
                p.moved(Op::Add, i)
            }
            _ => Val::Unknown,
        }
    }

    fn unary(&mut self, n: &Node) -> R<Val> {
        let Some(inner) = exprs(n).into_iter().next() else {
            return Ok(Val::Unknown);
        };
        let o = n.unop();
        let loc = loc_of(n);
        match o {
            op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC => {
                let lv = self.lvalue(&inner)?;
                let cur = match &lv {
                    LVal::Var(v) => self.env.get(v).cloned().unwrap_or(Val::Unknown),
                    LVal::Mem(p) => self.read(p, loc),
                    LVal::Unknown => Val::Unknown,
                };
                let one = Val::Int(Expr::Int(1));
                let new = self.arith(
                    if matches!(o, op::PRE_INC | op::POST_INC) {
                        op::ADD
                    } else {
                        op::SUB
                    },
                    cur.clone(),
                    one,
                );
                let new = match (&lv, new) {
                    (LVal::Var(_), Val::Unknown) if strip(inner).ty().is_integral() => {
                        Val::Int(self.local(&strip(inner).spelling()))
                    }
                    (_, v) => v,
                };
                self.store(&lv, new.clone(), loc);
                Ok(if matches!(o, op::PRE_INC | op::PRE_DEC) {
                    new
                } else {
                    cur
                })
            }
            op::ADDR_OF => Ok(self.pointer(n)?.map(Val::Ptr).unwrap_or(Val::Unknown)),
            op::DEREF => self.load(n),
            op::PLUS => self.rvalue(&inner),
            op::MINUS => {
                let v = self.rvalue(&inner)?;
                Ok(self.arith(op::SUB, Val::Int(Expr::Int(0)), v))
            }
            op::NOT => {
                let v = self.rvalue(&inner)?;
                let t = self.arith(op::SUB, Val::Int(Expr::Int(0)), v);
                Ok(self.arith(op::SUB, t, Val::Int(Expr::Int(1))))
            }
            op::LNOT => {
                let c = self.cond(n)?;
                Ok(Val::Int(of_cond(c)))
            }
            _ => {
                self.rvalue(&inner)?;
                Ok(Val::Unknown)
            }
        }
    }

    fn call(&mut self, n: &Node) -> R<Val> {
        let loc = loc_of(n);
        let callee = n.referenced();
        let args: Vec<Node> = (0..n.num_args().max(0) as u32).map(|i| n.arg(i)).collect();
        let Some(f) = callee else {
            // No declaration: a call through a pointer, or a dependent call
            // in a template.
            let ch = exprs(n);
            // The unresolved name a dependent call in a template calls.
            let overloaded = ch
                .first()
                .and_then(|c| strip(*c).referenced())
                .filter(|r| r.kind() == K::OVERLOADED_REF);
            // One that has one definition in scope (`shared_memory<T>()`):
            // inlined.
            if let Some(cand) = overloaded.and_then(|r| {
                let defined: Vec<Node> = r
                    .overloaded_decls()
                    .into_iter()
                    .filter(|d| matches!(d.kind(), K::FUNCTION | K::FUNCTION_TEMPLATE))
                    .map(|d| d.definition().unwrap_or(d))
                    .filter(children_has_body)
                    .collect();
                (defined.len() == 1).then(|| defined[0])
            }) {
                return self.inline(n, &cand, &args);
            }
            // An operator on a template's dependent operands (`v - s` with
            // `T v` while some `operator-` is in scope) lists the unresolved
            // operator between its operands: evaluate the operands, the value
            // is unknown.
            let operator = ch.iter().position(|c| {
                strip(*c)
                    .referenced()
                    .is_some_and(|d| d.spelling().starts_with("operator"))
            });
            if let Some(at) = operator.filter(|&at| at > 0) {
                for (k, c) in ch.iter().enumerate() {
                    if k != at {
                        self.rvalue(c)?;
                    }
                }
                return Ok(Val::Unknown);
            }
            if let Some(first) = ch.first() {
                let fs = strip(*first);
                if fs.kind() == K::DECL_REF || fs.kind() == K::MEMBER_REF {
                    if let Some(d) = fs.referenced() {
                        if d.kind() == K::VAR || d.kind() == K::PARM || d.kind() == K::FIELD {
                            return unsupported(n, "call through a function pointer");
                        }
                    }
                }
            }
            // A dependent call drfscan cannot resolve: like a declaration
            // without a body, it may write the memory its pointer arguments
            // reach, somewhere.
            for c in ch.iter().skip(1) {
                if let Val::Ptr(p) = self.rvalue(c)? {
                    if overloaded.is_some() {
                        self.access_somewhere(p, Mode::Write, loc);
                    }
                }
            }
            return Ok(Val::Unknown);
        };
        let fk = f.kind();
        if (fk == K::VAR || fk == K::PARM || fk == K::FIELD) && f.ty().is_dependent() {
            // A function object of a template parameter's type, in a
            // template analysed uninstantiated: a call drfscan cannot see
            // into, like one without a body.
            for a in &args {
                self.rvalue(a)?;
            }
            return Ok(Val::Unknown);
        }
        if (fk == K::VAR || fk == K::PARM || fk == K::FIELD) && !f.ty().is_record() {
            return unsupported(n, "call through a function pointer");
        }
        if fk == K::CONSTRUCTOR || fk == K::STRUCT || fk == K::CLASS || fk == K::TYPE_REF {
            for a in exprs(n) {
                self.rvalue(&a)?;
            }
            return Ok(Val::Unknown);
        }
        let name = f.spelling();
        if fk == K::METHOD {
            return self.method_call(n, &name);
        }
        // The toolkit's own headers (system headers) get the prelude's
        // models too, rather than their implementations inlined.
        if f.pos().file.starts_with(super::prelude::DIR) || f.in_system_header() {
            if let Some(v) = self.prelude_call(n, &name, &args)? {
                return Ok(v);
            }
        }
        match name.as_str() {
            "__syncthreads"
            | "__syncthreads_count"
            | "__syncthreads_and"
            | "__syncthreads_or"
            | "__barrier_sync" => {
                for a in &args {
                    self.rvalue(a)?;
                }
                self.sync(loc);
                return Ok(Val::Unknown);
            }
            "__syncwarp" => {
                for a in &args {
                    self.rvalue(a)?;
                }
                if self.warp_is_block {
                    self.sync(loc);
                } else {
                    let note = format!("`__syncwarp` at {loc} is not modelled: it orders only one warp of a larger block");
                    if !self.prog.approximations.contains(&note) {
                        self.prog.approximations.push(note);
                    }
                }
                return Ok(Val::Unknown);
            }
            "__requires" | "__assume" => {
                if let Some(a) = args.first() {
                    let c = self.cond(a)?;
                    let in_loop = !self.loop_vars.is_empty();
                    if self.path.is_empty() && !in_loop && self.stack.len() == 1 {
                        self.prog.assumes.push(c);
                    }
                }
                return Ok(Val::Unknown);
            }
            "__mul24" | "__umul24" if args.len() == 2 => {
                let a = self.rvalue(&args[0])?;
                let b = self.rvalue(&args[1])?;
                return Ok(self.arith(op::MUL, a, b));
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax"
                if args.len() == 2 && n.ty().is_integral() =>
            {
                let a = self.rvalue(&args[0])?;
                let b = self.rvalue(&args[1])?;
                return Ok(match (a, b) {
                    (Val::Int(a), Val::Int(b)) => Val::Int(Expr::bin(
                        if name.ends_with("min") {
                            Op::Min
                        } else {
                            Op::Max
                        },
                        a,
                        b,
                    )),
                    _ => Val::Unknown,
                });
            }
            _ => {}
        }
        if let Some(v) = self.byte_copy(&name, &args, loc)? {
            return Ok(v);
        }
        if let Some(mode) = atomic_mode(&name) {
            let Some(target) = args.first() else {
                return Ok(Val::Unknown);
            };
            let p = self.pointer(target)?;
            let mut operands = Vec::new();
            for a in args.iter().skip(1) {
                operands.push(self.rvalue(a)?);
            }
            let Some(mut p) = p else {
                return unsupported(n, "atomic on a pointer of unknown origin");
            };
            if p.index.is_empty() {
                p.index.push(Expr::Int(0));
            }
            self.access(&p, mode, loc);
            return Ok(self.atomic_result(&name, &p, &operands));
        }
        if name == "__ldg"
            || name.starts_with("__ldc")
            || name.starts_with("__ldlu")
            || name.starts_with("__ldcs")
        {
            // Cached loads: a read of `*p`.
            if let Some(a) = args.first() {
                if let Some(mut p) = self.pointer(a)? {
                    if p.index.is_empty() {
                        p.index.push(Expr::Int(0));
                    }
                    return Ok(self.read(&p, loc));
                }
            }
            return Ok(Val::Unknown);
        }
        if (name == "sync" || name == "synchronize") && args.len() == 1 {
            let ty = strip(args[0]).ty().canonical().spelling();
            if let Some(v) = self.group_sync(&ty, loc) {
                return Ok(v);
            }
        }
        if f.has_attr(K::CUDA_GLOBAL) {
            return unsupported(n, "kernel launch from device code (dynamic parallelism)");
        }
        if group_kind(&n.ty().canonical().spelling()).is_some() {
            // `this_grid()`, `this_thread_block()`, …: a group is modelled by
            // its type; the toolkit's constructors read driver state.
            for a in &args {
                self.rvalue(a)?;
            }
            return Ok(Val::Unknown);
        }
        // Integer math with a definition (`abs(int)`) is inlined for its
        // exact value.
        let exact = n.ty().is_integral() && f.definition().is_some_and(|d| children_has_body(&d));
        if is_pure_math(&name) && !args.is_empty() && !exact {
            // Math on values every thread shares is shared too. (The
            // toolkit's definitions touch no memory: not inlined.)
            let mut uniform = true;
            for a in &args {
                let v = self.rvalue(a)?;
                uniform &= self.grid_uniform(&v);
            }
            return Ok(if uniform { Val::Uniform } else { Val::Unknown });
        }
        let def = f.definition();
        match def {
            Some(d) if children_has_body(&d) => self.inline(n, &d, &args),
            _ => {
                // A declaration only: its result is unknown; memory it may
                // write through pointer arguments is written somewhere,
                // unless the parameter points to const.
                let params = u32::try_from(f.num_args()).unwrap_or(0);
                for (i, a) in (0u32..).zip(&args) {
                    let ty = strip(*a).ty();
                    if ty.is_pointer() || ty.is_array() {
                        if let Some(p) = self.pointer(a)? {
                            let seen = if i < params { f.arg(i).ty() } else { ty };
                            let writes = !seen.canonical().pointee().is_const_qualified();
                            let mode = if writes { Mode::Write } else { Mode::Read };
                            self.access_somewhere(p, mode, loc);
                        }
                    } else {
                        self.rvalue(a)?;
                    }
                }
                Ok(Val::Unknown)
            }
        }
    }

    /// An access a call drfscan cannot see into may make through `p`: in
    /// shared memory (a thread's own arrays cannot race), at an unknown
    /// place.
    /// `memcpy`, `memmove` and `memset` (and their `__builtin_` forms):
    /// writes of the destination's cells the byte count covers, and reads
    /// of the source's. `None` for other calls.
    fn byte_copy(&mut self, name: &str, args: &[Node], loc: Loc) -> R<Option<Val>> {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let copies = matches!(base, "memcpy" | "memmove");
        if !(copies || base == "memset") || args.len() != 3 {
            return Ok(None);
        }
        let dst = self.pointer(&args[0])?;
        let src = if copies {
            self.pointer(&args[1])?
        } else {
            self.rvalue(&args[1])?;
            None
        };
        let bytes = self.int(&args[2], "bytes")?;
        if let Some(src) = src {
            self.cells(&src, &bytes, Mode::Read, loc);
        }
        if let Some(dst) = dst {
            self.cells(&dst, &bytes, Mode::Write, loc);
        }
        Ok(Some(Val::Unknown))
    }

    /// Accesses every cell from `p` on that `bytes` bytes touch: one by one
    /// for a few, else as a loop.
    fn cells(&mut self, p: &Ptr, bytes: &Expr, mode: Mode, loc: Loc) {
        let cell = i64::try_from(p.cell).unwrap_or(0);
        let count = if cell > 1 {
            simplify(&Expr::bin(
                Op::Div,
                Expr::add(bytes.clone(), Expr::Int(cell - 1)),
                Expr::Int(cell),
            ))
        } else {
            simplify(bytes)
        };
        let at = |k: Expr| {
            let mut q = p.clone();
            q.elem = q.cell;
            q.advance(Op::Add, k);
            q
        };
        match count {
            Expr::Int(n) if n <= MAX_WIDTH as i64 => {
                for k in 0..n.max(0) {
                    self.access(&at(Expr::Int(k)), mode, loc);
                }
            }
            count => {
                let var = self.name("byte_cell");
                let q = at(Expr::var(&var));
                let Ok(((), body)) = self.capture(|me| {
                    me.access(&q, mode, loc);
                    Ok(())
                }) else {
                    return;
                };
                self.emit(Stmt::For {
                    var,
                    lo: Expr::Int(0),
                    hi: count,
                    body: Box::new(body),
                    loc: self.place(loc),
                });
            }
        }
    }

    fn access_somewhere(&mut self, mut p: Ptr, mode: Mode, loc: Loc) {
        if matches!(p.target, Target::Shared(_)) {
            p.index = vec![self.local("offset")];
            self.access(&p, mode, loc);
        }
    }

    /// Calls of functions the built-in headers declare with a meaning of
    /// their own: GPUVerify's annotations and cuRAND's generators. `None`:
    /// an ordinary call.
    fn prelude_call(&mut self, n: &Node, name: &str, args: &[Node]) -> R<Option<Val>> {
        let loc = loc_of(n);
        let cond_val = |c: Cond| Val::Int(of_cond(c));
        match name {
            "__implies" if args.len() == 2 => {
                let a = self.cond(&args[0])?;
                let b = self.cond(&args[1])?;
                Ok(Some(cond_val(Cond::or(Cond::not(a), b))))
            }
            // A precondition that holds in every thread holds in each.
            "__all" if args.len() == 1 && strip(args[0]).ty().canonical().spelling() == "bool" => {
                Ok(Some(cond_val(self.cond(&args[0])?)))
            }
            "__is_pow2" if args.len() == 1 => {
                let x = self.int(&args[0], "x")?;
                let pow2 = Cond::and(
                    Cond::cmp(Rel::Gt, x.clone(), Expr::Int(0)),
                    Cond::cmp(
                        Rel::Eq,
                        Expr::bin(Op::BitAnd, x.clone(), Expr::sub(x, Expr::Int(1))),
                        Expr::Int(0),
                    ),
                );
                Ok(Some(cond_val(pow2)))
            }
            "__mod_pow2" if args.len() == 2 => {
                let a = self.int(&args[0], "a")?;
                let b = self.int(&args[1], "b")?;
                Ok(Some(Val::Int(Expr::bin(Op::Mod, a, b))))
            }
            // Facts about both threads, the active threads or the other
            // thread: nothing a single thread's assumption can say, so they
            // constrain nothing (dropping an assumption is sound).
            "__enabled"
            | "__uniform_int"
            | "__uniform_bool"
            | "__distinct_int"
            | "__distinct_bool"
            | "__same_group"
            | "__at_most_one"
            | "__add_noovfl"
            | "__add_noovfl_signed"
            | "__add_noovfl_unsigned" => Ok(Some(cond_val(Cond::Bool(true)))),
            // Specifications with no effect on the analysis: loop and global
            // invariants, postconditions, access predicates, the values of
            // the other thread or of the past.
            "__invariant"
            | "__candidate_invariant"
            | "__global_invariant"
            | "__candidate_global_invariant"
            | "__assert"
            | "__global_assert"
            | "__ensures"
            | "__global_ensures"
            | "__axiom"
            | "__barrier_invariant"
            | "__barrier_invariant_binary"
            | "__requires_fresh_array"
            | "__read"
            | "__write"
            | "__atomic"
            | "__no_read"
            | "__no_write"
            | "__no_atomic"
            | "__read_implies"
            | "__write_implies"
            | "__atomic_implies"
            | "__read_offset_bytes"
            | "__write_offset_bytes"
            | "__atomic_offset_bytes"
            | "__ptr_offset_bytes"
            | "__ptr_base"
            | "__other_int"
            | "__other_bool"
            | "__old_int"
            | "__old_bool"
            | "__return_val_int"
            | "__return_val_bool"
            | "__return_val_ptr"
            | "__return_val_funptr"
            | "__array_snapshot"
            | "__non_temporal_loads_begin"
            | "__non_temporal_loads_end" => Ok(Some(Val::Unknown)),
            _ if name.starts_with("curand") || name.starts_with("skipahead") => {
                // A generator reads and advances the state it is given.
                let mut state = None;
                for a in args {
                    let ty = strip(*a).ty();
                    if ty.is_pointer() && state.is_none() {
                        state = Some((self.pointer(a)?, ty.canonical().pointee().spelling()));
                    } else {
                        self.rvalue(a)?;
                    }
                }
                let Some((Some(mut p), ty)) = state else {
                    return Ok(Some(Val::Unknown));
                };
                if p.index.is_empty() {
                    p.index.push(Expr::Int(0));
                }
                if ty.contains("curandStateMtgp32") {
                    // Up to 256 threads of a block share one MTGP32 state,
                    // each through a slot of its own.
                    let last = p.index.pop().unwrap_or(Expr::Int(0));
                    let slot = Expr::bin(Op::Mod, linear_tid(), Expr::Int(256));
                    p.index
                        .push(Expr::add(Expr::bin(Op::Mul, last, Expr::Int(256)), slot));
                } else if !name.starts_with("curand_init") {
                    self.read(&p, loc);
                }
                self.write(&p, &Val::Unknown, loc);
                Ok(Some(Val::Unknown))
            }
            _ => Ok(None),
        }
    }

    /// Member functions are not inlined: assignment operators of
    /// structures write (and compound ones also read) their object; any
    /// other member call only evaluates its operands.
    fn method_call(&mut self, n: &Node, name: &str) -> R<Val> {
        let ops = exprs(n);
        let loc = loc_of(n);
        // Cooperative groups: the whole block's group.
        let object = ops
            .first()
            .map(|o| strip(*o))
            .and_then(|o| {
                if o.kind() == K::MEMBER_REF {
                    exprs(&o).first().copied()
                } else {
                    Some(o)
                }
            })
            .map(|o| strip(o).ty().canonical().spelling())
            .unwrap_or_default();
        if name == "sync" {
            if let Some(v) = self.group_sync(&object, loc) {
                return Ok(v);
            }
        }
        if name == "thread_rank" && group_kind(&object) == Some("thread_block") {
            return Ok(Val::Int(linear_tid()));
        }
        let assign = name
            .strip_prefix("operator")
            .filter(|o| o.ends_with('=') && !matches!(*o, "==" | "!=" | "<=" | ">="));
        if let (Some(o), Some(target)) = (assign, ops.first()) {
            let lv = self.lvalue(target)?;
            for a in ops.iter().skip(1) {
                self.rvalue(a)?;
            }
            if let LVal::Mem(p) = &lv {
                if o != "=" {
                    self.read(p, loc);
                }
                self.write(p, &Val::Unknown, loc);
            }
            if let LVal::Var(k) = &lv {
                let prefix = format!("{k}.");
                self.env.retain(|key, _| !key.starts_with(&prefix));
            }
            return Ok(Val::Unknown);
        }
        for a in ops {
            self.rvalue(&a)?;
        }
        Ok(Val::Unknown)
    }

    fn inline(&mut self, call: &Node, f: &Node, args: &[Node]) -> R<Val> {
        let fkey = key(f);
        if self.stack.contains(&fkey) {
            return unsupported(call, format!("recursive call to `{}`", f.spelling()));
        }
        if self.stack.len() > 64 {
            return unsupported(call, "calls nested too deeply");
        }
        let params: Vec<Node> = f
            .children()
            .into_iter()
            .filter(|c| c.kind() == K::PARM)
            .collect();
        let mut bound = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let pk = key(p);
            let Some(a) = args.get(i) else { continue };
            if p.ty().is_reference() {
                match self.lvalue(a)? {
                    LVal::Var(v) => {
                        self.aliases.insert(pk.clone(), v);
                    }
                    LVal::Mem(m) => {
                        self.env.insert(pk.clone(), Val::Ptr(m));
                        self.aliases.insert(pk.clone(), format!("*{pk}"));
                    }
                    LVal::Unknown => {
                        self.aliases.remove(&pk);
                        self.env.insert(pk.clone(), Val::Unknown);
                    }
                }
            } else {
                let v = self.rvalue(a)?;
                let v = match v {
                    Val::Unknown if p.ty().is_integral() => Val::Int(self.local(&p.spelling())),
                    v => v,
                };
                self.aliases.remove(&pk);
                self.env.insert(pk.clone(), v);
            }
            bound.push(pk);
        }
        let Some(body) = f.children().into_iter().find(|c| c.kind() == K::COMPOUND) else {
            return Ok(Val::Unknown);
        };
        let saved_site = self.site;
        if self.site.is_none() && f.pos().file != self.main {
            self.site = Some(loc_of(call));
        }
        self.stack.push(fkey);
        self.returns.push(Vec::new());
        let saved_path = std::mem::take(&mut self.path);
        let r = self
            .block(&body.children())
            .and_then(|j| match j.gotos.first() {
                Some((label, _)) => {
                    unsupported(f, &format!("goto {label} before its label or into a block"))
                }
                None => Ok(j),
            });
        self.path = saved_path;
        let rets = self.returns.pop().unwrap_or_default();
        self.stack.pop();
        self.site = saved_site;
        r?;
        // The result: the value of the return reached, by path.
        let mut result: Option<Val> = None;
        for (c, v) in rets.into_iter().rev() {
            result = Some(match (result, v) {
                (None, v) => v,
                (Some(Val::Int(rest)), Val::Int(v)) => Val::Int(simplify(&Expr::Ite(
                    Box::new(c),
                    Box::new(v),
                    Box::new(rest),
                ))),
                (Some(rest), v) if rest == v => v,
                _ => Val::Unknown,
            });
        }
        Ok(result.unwrap_or(Val::Unknown))
    }
}

struct Shape<'a> {
    var: String,
    lo: Expr,
    rel: Rel,
    bound: Expr,
    step: Step,
    rest: Option<Node<'a>>,
}

enum Step {
    Add(Expr),
    Sub(Expr),
    Mul(Expr),
    Div(Expr),
}

/// The values of a loop whose start, bound and step are constants, when
/// there are few: at most 64 for multiplicative steps (a handful of powers),
/// at most 8 for additive ones.
fn constant_values(shape: &Shape) -> Option<Vec<i64>> {
    let (Expr::Int(lo), Expr::Int(bound)) = (&shape.lo, &shape.bound) else {
        return None;
    };
    let (kind, f) = match &shape.step {
        Step::Mul(f) => (0, simplify(f)),
        Step::Div(f) => (1, simplify(f)),
        Step::Add(f) => (2, simplify(f)),
        Step::Sub(f) => (3, simplify(f)),
    };
    let Expr::Int(f) = f else { return None };
    let limit = if kind < 2 { 64 } else { 8 };
    if (kind < 2 && (f < 2 || *lo <= 0)) || (kind >= 2 && f < 1) {
        return None;
    }
    let holds = |v: i64| match shape.rel {
        Rel::Lt => v < *bound,
        Rel::Le => v <= *bound,
        Rel::Gt => v > *bound,
        Rel::Ge => v >= *bound,
        Rel::Ne => v != *bound,
        Rel::Eq => v == *bound,
    };
    let mut out = Vec::new();
    let mut v = *lo;
    while holds(v) {
        if out.len() == limit || (kind == 1 && v == 0) {
            return None;
        }
        out.push(v);
        v = match kind {
            0 => v.checked_mul(f)?,
            1 => v / f,
            2 => v.checked_add(f)?,
            _ => v.checked_sub(f)?,
        };
    }
    Some(out)
}

/// For `for (v = lo; …; v++)` whose body breaks out under `brk`: the
/// condition that no iteration before `v` broke out, when it has a closed
/// form.
fn no_earlier_break(brk: &Cond, v: &str, lo: &Expr) -> Option<Cond> {
    let Cond::Cmp(rel, a, b) = brk else {
        return None;
    };
    let var = Expr::var(v);
    let mentions_v = |e: &Expr| {
        let mut s = BTreeSet::new();
        e.free_vars(&mut s);
        s.contains(v)
    };
    let (rel, c) = if *a == var && !mentions_v(b) {
        (*rel, b.clone())
    } else if *b == var && !mentions_v(a) {
        let flipped = match rel {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => *r,
        };
        (flipped, a.clone())
    } else {
        return None;
    };
    match rel {
        // Broke at `c` if `lo <= c < v`.
        Rel::Eq => Some(Cond::not(Cond::and(
            Cond::cmp(Rel::Le, lo.clone(), c.clone()),
            Cond::cmp(Rel::Lt, c, var),
        ))),
        // Broke at some `v'` in `[lo, v)` with `v' >= c`.
        Rel::Ge => Some(Cond::or(
            Cond::cmp(Rel::Le, var.clone(), c),
            Cond::cmp(Rel::Le, var, lo.clone()),
        )),
        Rel::Gt => Some(Cond::or(
            Cond::cmp(Rel::Le, var.clone(), simplify(&Expr::add(c, Expr::Int(1)))),
            Cond::cmp(Rel::Le, var, lo.clone()),
        )),
        _ => None,
    }
}

/// `threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y`.
fn linear_tid() -> Expr {
    let [tx, ty, tz] = builtin::TID.map(Expr::var);
    let [bx, by, _] = builtin::BLOCK_DIM.map(Expr::var);
    Expr::add(
        Expr::add(tx, Expr::bin(Op::Mul, ty, bx.clone())),
        Expr::bin(Op::Mul, tz, Expr::bin(Op::Mul, bx, by)),
    )
}

/// Expressions with more nodes than this become unknowns: indexes and
/// guards of real kernels are far smaller, and larger terms only cost the
/// solver time.
const MAX_EXPR_NODES: usize = 128;

/// Whether `e` has more than [`MAX_EXPR_NODES`] nodes; stops counting there.
fn too_big(e: &Expr) -> bool {
    fn count(e: &Expr, left: &mut usize) -> bool {
        if *left == 0 {
            return true;
        }
        *left -= 1;
        match e {
            Expr::Int(_) | Expr::Var(_) => false,
            // A condition counts as one node: it compares expressions that
            // were bounded when it was built.
            Expr::Bin(_, a, b) | Expr::Ite(_, a, b) => count(a, left) || count(b, left),
        }
    }
    let mut left = MAX_EXPR_NODES;
    count(e, &mut left)
}

/// `+=` → `+`, and so on.
fn compound_base(o: i32) -> i32 {
    match o {
        23..=29 => o - 20,
        30 => op::AND,
        31 => op::XOR,
        32 => op::OR,
        o => o,
    }
}

/// The variable a structure is copied from, through copy constructors.
fn record_source(n: Node) -> Option<Node> {
    let n = strip(n);
    let k = n.kind();
    if k == K::DECL_REF {
        return Some(n);
    }
    if k == K::CALL
        && n.referenced()
            .map(|c| c.kind() == K::CONSTRUCTOR)
            .unwrap_or(false)
    {
        let args = exprs(&n);
        if args.len() == 1 {
            return record_source(args[0]);
        }
    }
    None
}

/// Whether a member function's body reads its object (`this`, or a member
/// named without it).
fn uses_this(f: &Node) -> bool {
    fn walk(n: &Node) -> bool {
        n.children().iter().any(|c| {
            c.kind() == K::THIS
                || (c.kind() == K::MEMBER_REF
                    && exprs(c).is_empty()
                    && c.referenced().is_some_and(|d| d.kind() == K::FIELD))
                || walk(c)
        })
    }
    walk(f)
}

fn children_has_body(f: &Node) -> bool {
    f.children().iter().any(|c| c.kind() == K::COMPOUND)
}

fn var_key(n: &Node) -> Option<String> {
    let n = strip(*n);
    if n.kind() != K::DECL_REF {
        return None;
    }
    let d = n.referenced()?;
    (d.kind() == K::VAR || d.kind() == K::PARM).then(|| key(&d))
}

fn mentions(n: &Node, vars: &HashSet<String>) -> bool {
    if n.kind() == K::DECL_REF {
        if let Some(d) = n.referenced() {
            if vars.contains(&key(&d)) {
                return true;
            }
        }
    }
    n.children().iter().any(|c| mentions(c, vars))
}

/// A name for the unknown value of an expression, after what it reads.
fn hint_of(n: &Node) -> String {
    let n = strip(*n);
    let k = n.kind();
    if k == K::DECL_REF || k == K::MEMBER_REF || k == K::CALL {
        return n.spelling();
    }
    if k == K::ARRAY_SUBSCRIPT || k == K::UNARY {
        if let Some(b) = exprs(&n).first() {
            let h = hint_of(b);
            return if h.is_empty() || h.ends_with(".elem") {
                h
            } else {
                format!("{h}.elem")
            };
        }
    }
    "value".into()
}

fn has_effects(n: &Node) -> bool {
    let k = n.kind();
    if k == K::CALL || k == K::ARRAY_SUBSCRIPT || k == K::COMPOUND_ASSIGN {
        return true;
    }
    if k == K::BINARY && n.binop() == op::ASSIGN {
        return true;
    }
    if k == K::UNARY
        && matches!(
            n.unop(),
            op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC | op::DEREF
        )
    {
        return true;
    }
    n.children().iter().any(has_effects)
}

/// A loop condition `__invariant(…), …, c` (GPUVerify's loop invariants)
/// as its test `c`.
fn without_invariants(n: Node) -> Node {
    fn is_invariant(n: &Node) -> bool {
        let n = strip(*n);
        if n.kind() == K::BINARY && n.binop() == op::COMMA {
            return exprs(&n).iter().all(is_invariant);
        }
        n.kind() == K::CALL
            && n.referenced().is_some_and(|f| {
                f.pos().file.starts_with(super::prelude::DIR) && f.spelling().contains("invariant")
            })
    }
    let mut n = n;
    while n.kind() == K::BINARY && n.binop() == op::COMMA {
        let ch = exprs(&n);
        match ch.as_slice() {
            [l, r] if is_invariant(l) => n = strip(*r),
            _ => break,
        }
    }
    n
}

fn atomic_mode(name: &str) -> Option<Mode> {
    let base = name.trim_end_matches("_block").trim_end_matches("_system");
    matches!(
        base,
        "atomicAdd"
            | "atomicSub"
            | "atomicExch"
            | "atomicMin"
            | "atomicMax"
            | "atomicInc"
            | "atomicDec"
            | "atomicCAS"
            | "atomicAnd"
            | "atomicOr"
            | "atomicXor"
    )
    .then_some(Mode::Atomic)
}

/// The cooperative group a type names (`thread_block`, `grid_group`,
/// `thread_block_tile`, …), from its canonical spelling, past `const` and
/// the versioned namespaces the toolkit nests its API in.
fn group_kind(spelling: &str) -> Option<&str> {
    let mut rest = spelling
        .trim_start_matches("const ")
        .strip_prefix("cooperative_groups::")?;
    while let Some((head, tail)) = rest.split_once("::") {
        if head.contains('<') {
            break;
        }
        rest = tail;
    }
    let end = rest.find(['<', ' ', '&']).unwrap_or(rest.len());
    Some(&rest[..end])
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
