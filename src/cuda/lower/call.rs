//! Calls: `__device__` functions inlined, atomics (and the tickets they
//! hand out), barriers of cooperative groups, member functions, and calls
//! drfscan cannot see into.

use super::*;

/// Math functions of the toolkit whose result depends on their arguments
/// only.
pub(super) fn is_pure_math(name: &str) -> bool {
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

/// `threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y`.
pub(super) fn linear_tid() -> Expr {
    builtin::linear_id(
        |d| Expr::var(builtin::TID[d]),
        |d| Expr::var(builtin::BLOCK_DIM[d]),
    )
}

/// A thread's lane in its warp: its linear id modulo 32.
pub(super) fn lane() -> Expr {
    Expr::bin(Op::Mod, linear_tid(), Expr::Int(builtin::WARP_SIZE))
}

/// The mask of the lanes of a thread's warp below its own:
/// `(1 << lane) - 1`, PTX's `%lanemask_lt`.
pub(super) fn lanes_below() -> Expr {
    Expr::bin(
        Op::Sub,
        Expr::bin(Op::Shl, Expr::Int(1), lane()),
        Expr::Int(1),
    )
}

/// The variable a structure is copied from, through copy constructors.
pub(super) fn record_source(n: Node) -> Option<Node> {
    let n = strip(n);
    let k = n.kind();
    if k == K::DECL_REF {
        return Some(n);
    }
    // `b.kv` of a structure variable (a parameter's nested structure):
    // its fields are variables too. Through a pointer or a reference they
    // are memory, read where the copy is made.
    if k == K::MEMBER_REF && n.ty().is_record() {
        let base = strip(*exprs(&n).first()?);
        let held =
            base.kind() != K::DECL_REF || base.referenced().is_some_and(|d| !d.ty().is_reference());
        if !base.ty().is_pointer() && held && base.ty().is_record() {
            return record_source(base).map(|_| n);
        }
        return None;
    }
    if k == K::CALL
        && n.referenced()
            .map(|c| c.kind() == K::CONSTRUCTOR)
            .unwrap_or(false)
    {
        // A copy of a structure; a constructor from a number or a pointer
        // (`Rows r(out)`) builds one instead.
        let args = exprs(&n);
        if args.len() == 1 && strip(args[0]).ty().is_record() {
            return record_source(args[0]);
        }
    }
    None
}

/// The functions and function templates an unresolved name in a template
/// (`OVERLOADED_REF`) may stand for that have a body, as their definitions.
pub(super) fn defined_overloads<'t>(r: &Node<'t>) -> Vec<Node<'t>> {
    r.overloaded_decls()
        .into_iter()
        .filter(|d| matches!(d.kind(), K::FUNCTION | K::FUNCTION_TEMPLATE))
        .map(|d| d.definition().unwrap_or(d))
        .filter(children_has_body)
        .collect()
}

/// The explicit specializations with a body of the bodiless function
/// templates an unresolved name may stand for (`template <int N> void
/// load(void *, const void *);` declared, `template <> void load<16>(…)
/// {…}` defined beside it), as declared in the template's scope.
pub(super) fn explicit_specializations<'t>(r: &Node<'t>) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    for d in r.overloaded_decls() {
        if d.kind() != K::FUNCTION_TEMPLATE || children_has_body(&d.definition().unwrap_or(d)) {
            continue;
        }
        let Some(scope) = d.semantic_parent() else {
            continue;
        };
        let primary = key(&d);
        for c in scope.children() {
            let of_it = c.kind() == K::FUNCTION
                && c.spelling() == d.spelling()
                && c.specialized_template().is_some_and(|t| key(&t) == primary);
            if of_it && children_has_body(&c) && !out.iter().any(|o: &Node| o.id() == c.id()) {
                out.push(c);
            }
        }
    }
    out
}

/// Whether a member function's body reads its object (`this`, or a member
/// named without it: a field, or another member function called on it).
pub(super) fn uses_this(f: &Node) -> bool {
    fn walk(n: &Node) -> bool {
        n.children().iter().any(|c| {
            c.kind() == K::THIS
                || (c.kind() == K::MEMBER_REF
                    && exprs(c).is_empty()
                    && c.referenced()
                        .is_some_and(|d| d.kind() == K::FIELD || d.kind() == K::METHOD))
                || walk(c)
        })
    }
    walk(f)
}

/// Whether the function `f` touches no memory a kernel can see: no
/// reference parameter it could assign, and a body that indexes,
/// dereferences and names no memory (no global variable, no `this`),
/// has no assembly, and calls only functions that are memory free in turn
/// (itself included) or bodiless ones given no pointer that are neither
/// barriers nor atomics. Its one effect is the value it returns, which is
/// what a recursion of it can be taken as (`to<T>(x)`'s generic
/// fallback calling itself, a recursive `gcd`).
pub(super) fn memory_free(f: &Node) -> bool {
    fn callee_free(f: &Node, seen: &mut Vec<u32>) -> bool {
        if seen.contains(&f.id()) {
            return true;
        }
        if seen.len() > 32 {
            return false;
        }
        seen.push(f.id());
        let by_value = f
            .params()
            .iter()
            .all(|p| !p.ty().is_reference() || p.ty().pointee().is_const_qualified());
        by_value
            && f.children()
                .into_iter()
                .find(|c| c.kind() == K::COMPOUND)
                .is_some_and(|b| free(&b, seen))
    }
    fn bodiless_free(call: &Node, name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        let effect = ["sync", "fence", "atomic", "barrier"]
            .iter()
            .any(|w| lower.contains(w));
        !effect
            && exprs(call).iter().all(|a| {
                let t = strip(*a).ty().canonical();
                !t.is_pointer() && !t.is_reference() && !t.is_array() && !t.is_dependent()
            })
    }
    fn free(n: &Node, seen: &mut Vec<u32>) -> bool {
        n.children().iter().all(|c| {
            let k = c.kind();
            let here = if [
                K::ARRAY_SUBSCRIPT,
                K::ASM,
                K::MS_ASM,
                K::THIS,
                K::NEW,
                K::DELETE,
                K::LAMBDA,
            ]
            .contains(&k)
            {
                false
            } else if k == K::UNARY {
                c.unop() != op::DEREF
            } else if k == K::MEMBER_REF {
                !c.tokens().iter().any(|(t, _)| t == "->")
            } else if k == K::DECL_REF {
                // A variable of the thread's own: not a global, a
                // `__shared__` or a `static` one, which threads share.
                c.referenced().is_none_or(|d| {
                    let global = d.semantic_parent().is_some_and(|p| {
                        [
                            K::TRANSLATION_UNIT,
                            K::NAMESPACE,
                            K::LINKAGE_SPEC,
                            K::STRUCT,
                            K::CLASS,
                        ]
                        .contains(&p.kind())
                    });
                    d.kind() != K::VAR
                        || !(global || d.is_shared() || d.is_static() || d.is_extern())
                })
            } else if k == K::CALL {
                match c.referenced() {
                    Some(g) if matches!(g.kind(), K::FUNCTION | K::FUNCTION_TEMPLATE) => {
                        let g = g.definition().unwrap_or(g);
                        if children_has_body(&g) {
                            callee_free(&g, seen)
                        } else {
                            bodiless_free(c, &g.spelling())
                        }
                    }
                    Some(_) => false,
                    None => {
                        // An unresolved name in a template: every
                        // definition it may stand for.
                        let named = exprs(c)
                            .first()
                            .and_then(|x| strip(*x).referenced())
                            .filter(|r| r.kind() == K::OVERLOADED_REF);
                        match named {
                            Some(r) => {
                                let defs = defined_overloads(&r);
                                if defs.is_empty() {
                                    bodiless_free(c, &r.spelling())
                                } else {
                                    defs.iter().all(|g| callee_free(g, seen))
                                }
                            }
                            None => false,
                        }
                    }
                }
            } else {
                true
            };

            here && free(c, seen)
        })
    }
    callee_free(f, &mut Vec::new())
}

/// Whether inline assembly occurs anywhere inside `n`.
pub(super) fn has_asm(n: &Node) -> bool {
    n.children()
        .iter()
        .any(|c| c.kind() == K::ASM || c.kind() == K::MS_ASM || has_asm(c))
}

/// Whether a call of `f` may pass `args`: as many as its parameters,
/// less those with defaults, and no integer where it takes a pointer or
/// the reverse (a type a template leaves open may be either).
fn takes(f: &Node, args: &[Node]) -> bool {
    let params: Vec<Node> = f.params();
    let required = params
        .iter()
        .filter(|p| !p.children().iter().any(Node::is_expression))
        .count();
    // A parameter pack (`Args... rest`) or C's `...` takes any number.
    let pack = params.iter().any(|p| p.ty().spelling().contains("..."))
        || f.ty().spelling().contains("...)");
    if args.len() < required || (args.len() > params.len() && !pack) {
        return false;
    }
    params.iter().zip(args).all(|(p, a)| {
        let (pt, a) = (p.ty(), strip(*a));
        let at = a.ty();
        if pt.is_dependent() || at.is_dependent() {
            return true;
        }
        let null = a.eval_int() == Some(0);
        !(pt.is_pointer() && at.is_integral() && !null)
            && !(pt.is_integral() && (at.is_pointer() || at.is_array()))
            && !(pt.is_pointer() && (at.is_pointer() || at.is_array()) && !points_alike(pt, at))
    })
}

/// Whether a pointer of type `at` (or an array decaying to one) converts
/// to the pointer type `pt` without a cast: the same element type but for
/// qualifiers, `void`, a base class, or a type left open.
fn points_alike(pt: Ty, at: Ty) -> bool {
    let to = pt.canonical().pointee().canonical();
    let from = if at.is_array() {
        at.canonical().element()
    } else {
        at.canonical().pointee()
    }
    .canonical();
    let bare = |t: Ty| {
        let mut s = t.spelling();
        while let Some(rest) = ["const ", "volatile ", "__restrict "]
            .iter()
            .find_map(|q| s.strip_prefix(q))
        {
            s = rest.to_string();
        }
        s
    };
    to.is_dependent()
        || from.is_dependent()
        || bare(to) == "void"
        || bare(to) == bare(from)
        || (from.is_record() && from.has_bases())
}

pub(super) fn children_has_body(f: &Node) -> bool {
    f.children().iter().any(|c| c.kind() == K::COMPOUND)
}

/// A loop condition `__invariant(…), …, c` (GPUVerify's loop invariants)
/// as its test `c`.
pub(super) fn without_invariants(n: Node) -> Node {
    fn is_invariant(n: &Node) -> bool {
        let n = strip(*n);
        if n.kind() == K::BINARY && n.binop() == op::COMMA {
            return exprs(&n).iter().all(is_invariant);
        }
        n.kind() == K::CALL
            && n.referenced().is_some_and(|f| {
                f.pos().file.starts_with(crate::cuda::prelude::DIR)
                    && f.spelling().contains("invariant")
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

/// An atomic's name without its scope suffix (`atomicCAS_block`:
/// `atomicCAS`).
pub(super) fn atomic_base(name: &str) -> &str {
    name.trim_end_matches("_block").trim_end_matches("_system")
}

pub(super) fn atomic_mode(name: &str) -> Option<Mode> {
    matches!(
        atomic_base(name),
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

/// libcu++'s atomic types: a reference to a cell (`cuda::atomic_ref`,
/// `cuda::std::atomic_ref`) or an object that is its own cell
/// (`cuda::atomic`, `cuda::std::atomic`, `cuda::std::atomic_flag`), from
/// a type's canonical spelling.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum AtomicKind {
    Ref,
    Object,
}

pub(super) fn atomic_kind(spelling: &str) -> Option<AtomicKind> {
    let s = spelling
        .trim_start_matches("const ")
        .trim_start_matches("volatile ");
    if !s.starts_with("cuda::") {
        return None;
    }
    let template = s.split('<').next().unwrap_or("");
    match template.rsplit("::").next() {
        Some("atomic_ref") => Some(AtomicKind::Ref),
        Some("atomic" | "atomic_flag") => Some(AtomicKind::Object),
        _ => None,
    }
}

/// The object of a call of a libcu++ atomic's operation, its kind, and
/// whether the call reaches it through a pointer (`bins[i].fetch_add(1)`,
/// `flag->store(1)`).
pub(super) fn atomic_object<'a>(n: &Node<'a>) -> Option<(Node<'a>, AtomicKind, bool)> {
    let object = object_node(n)?;
    let ty = object.ty();
    let (ty, through) = if ty.is_pointer() {
        (ty.pointee(), true)
    } else {
        (ty, false)
    };
    atomic_kind(&ty.canonical().spelling()).map(|k| (object, k, through))
}

/// Whether an atomic's arguments order it as a release or stronger: a
/// `memory_order` of release, acq_rel or seq_cst, or none (seq_cst).
pub(super) fn releases(args: &[Node]) -> bool {
    orders(args, &["release", "acq_rel", "seq_cst"])
}

/// Whether an atomic's arguments order it as an acquire or stronger.
pub(super) fn acquires(args: &[Node]) -> bool {
    orders(args, &["acquire", "acq_rel", "seq_cst"])
}

/// Whether the order among `args` (an enumerator, or the toolkit's
/// constant naming one: `memory_order_relaxed`, `memory_order::relaxed`)
/// is one of `strong`; an order not written is seq_cst, one not read (a
/// variable) is taken as relaxed.
fn orders(args: &[Node], strong: &[&str]) -> bool {
    let order = args.iter().find_map(|a| {
        let a = strip(*a);
        if !a.ty().canonical().spelling().ends_with("memory_order") {
            return None;
        }
        Some(a.referenced().map(|d| d.spelling()).unwrap_or_default())
    });
    order.is_none_or(|o| strong.contains(&o.trim_start_matches("memory_order_")))
}

/// The cooperative group a type names (`thread_block`, `grid_group`,
/// `thread_block_tile`, …), from its canonical spelling, past `const` and
/// the versioned namespaces the toolkit nests its API in.
pub(super) fn group_kind(spelling: &str) -> Option<&str> {
    let rest = past_namespaces(
        spelling
            .trim_start_matches("const ")
            .strip_prefix("cooperative_groups::")?,
    );
    Some(class_name(rest))
}

/// `spelling` past its leading namespaces (`__v1::thread_block` is
/// `thread_block`), up to the first template's arguments.
pub(super) fn past_namespaces(spelling: &str) -> &str {
    let mut rest = spelling;
    while let Some((head, tail)) = rest.split_once("::") {
        if head.contains('<') {
            break;
        }
        rest = tail;
    }
    rest
}

/// The class a type spelled `spelling` names, without its template
/// arguments or reference.
pub(super) fn class_name(spelling: &str) -> &str {
    let end = spelling.find(['<', ' ', '&']).unwrap_or(spelling.len());
    &spelling[..end]
}

/// `v` as the leader of a group holds it: the values chosen under
/// conditions `leads` says hold for the group's leader only.
fn at_leader(v: &Expr, leads: &dyn Fn(&Cond) -> bool) -> Expr {
    match v {
        Expr::Ite(c, a, _) if leads(c) => at_leader(a, leads),
        Expr::Ite(c, a, b) => Expr::Ite(
            c.clone(),
            Box::new(at_leader(a, leads)),
            Box::new(at_leader(b, leads)),
        ),
        Expr::Bin(o, a, b) => Expr::Bin(
            *o,
            Box::new(at_leader(a, leads)),
            Box::new(at_leader(b, leads)),
        ),
        e => e.clone(),
    }
}

/// The parameter's default value when the call leaves it out (`f(x)` of
/// `f(float v, bool sync = false)`): clang passes no argument, or one with
/// nothing in it.
fn default_argument<'a>(a: Option<&Node<'a>>, p: &Node<'a>) -> Option<Node<'a>> {
    // (`int()` is empty too, but written: it has tokens.)
    let empty = a.is_none_or(|a| {
        a.kind() == K::UNEXPOSED && a.children().is_empty() && a.tokens().is_empty()
    });
    if !empty {
        return None;
    }
    p.children().into_iter().rev().find(|c| c.is_expression())
}

/// The member a dependent member call names: its last token (`shared .
/// getPointer`), since a dependent member reference has no spelling.
fn dependent_member_name(callee: &Node) -> Option<String> {
    let callee = strip(*callee);
    if callee.kind() != K::MEMBER_REF || callee.referenced().is_some() {
        return None;
    }
    callee.tokens().last().map(|(t, _)| t.clone())
}

/// The member function a dependent member call names (`m.get()` with `m`
/// of type `SharedMem<T>`): the one member function of that name, with a
/// body, of the object's class template. Where only explicit
/// specializations define it (`SharedMemory<float>`, `<double>`), and each
/// returns an `extern __shared__` array, they all return the block's one
/// dynamic shared memory: the first of them, whose element type the caller
/// leaves open (`true`).
pub(super) fn dependent_method<'a>(callee: &Node<'a>, args: usize) -> Option<(Node<'a>, bool)> {
    let callee = strip(*callee);
    if callee.kind() != K::MEMBER_REF || callee.referenced().is_some() {
        return None;
    }
    let object = strip(*exprs(&callee).first()?);
    let class = object.type_declaration()?.through_alias_template();
    let class = if class.kind() == K::CLASS_TEMPLATE {
        class
    } else {
        class
            .specialized_template()
            .filter(|t| t.kind() == K::CLASS_TEMPLATE)?
    };
    let name = dependent_member_name(&callee)?;
    let methods = methods_named(&class, &name, 0);
    // Overloads: the one of the call's arity, and of a const object's
    // constness (`data()` and `data() const`, as accessors pair them).
    let chosen: Vec<Node> = match methods.as_slice() {
        [_, _, ..] => {
            let fit: Vec<Node> = methods
                .iter()
                .filter(|m| m.params().len() == args)
                .copied()
                .collect();
            match fit.as_slice() {
                [_, _, ..] => {
                    let constant = object.ty().is_const_qualified();
                    fit.into_iter()
                        .filter(|m| m.is_const_method() == constant)
                        .collect()
                }
                _ => fit,
            }
        }
        _ => methods,
    };
    match chosen.as_slice() {
        [m] if children_has_body(m) && !returns_only_null(m) => return Some((*m, false)),
        // A primary template whose getter only returns a null pointer
        // (`error(); return NULL;`, "never instantiated") leaves it to its
        // specializations.
        [m] if children_has_body(m) => {}
        [] => {}
        _ => return None,
    }
    let specialized: Vec<Node> = class
        .semantic_parent()?
        .children()
        .into_iter()
        .filter(|c| matches!(c.kind(), K::STRUCT | K::CLASS))
        .filter(|c| {
            c.specialized_template()
                .is_some_and(|t| t.id() == class.id())
        })
        .collect();
    let mut methods = Vec::new();
    for c in &specialized {
        let named: Vec<Node> = c
            .children()
            .into_iter()
            .filter(|m| m.kind() == K::METHOD && m.spelling() == name)
            .collect();
        match named.as_slice() {
            [m] if children_has_body(m) && !uses_this(m) && returns_dynamic_shared(m) => {
                methods.push(*m)
            }
            _ => return None,
        }
    }
    methods.first().map(|m| (*m, true))
}

/// The member functions `name` of a class or class template, else of its
/// nearest base class that has some (accessors inherit `data()` from a
/// base template).
fn methods_named<'a>(class: &Node<'a>, name: &str, depth: u32) -> Vec<Node<'a>> {
    let own: Vec<Node> = class
        .children()
        .into_iter()
        .filter(|m| m.kind() == K::METHOD && m.spelling() == name)
        .collect();
    if !own.is_empty() || depth >= MAX_BASE_DEPTH {
        return own;
    }
    class
        .base_declarations()
        .iter()
        .map(|b| methods_named(b, name, depth + 1))
        .find(|m| !m.is_empty())
        .unwrap_or_default()
}

/// Base classes followed when a member is looked up.
const MAX_BASE_DEPTH: u32 = 4;

/// Whether every `return` of `f` gives a null pointer constant, and it
/// has one.
fn returns_only_null(f: &Node) -> bool {
    fn returns<'a>(n: &Node<'a>, out: &mut Vec<Node<'a>>) {
        for c in n.children() {
            if c.kind() == K::RETURN {
                out.push(c);
            } else if c.kind() != K::LAMBDA {
                returns(&c, out);
            }
        }
    }
    // A function's type is spelled `T *(void)`: its result before `(`.
    let spelled = f.ty().spelling();
    if !spelled.split('(').next().is_some_and(|r| r.contains('*')) {
        return false;
    }
    let mut found = Vec::new();
    returns(f, &mut found);
    !found.is_empty()
        && found.iter().all(|r| {
            exprs(r).first().is_some_and(|e| {
                let e = strip(*e);
                matches!(e.kind(), K::NULLPTR | K::GNU_NULL) || e.eval_int() == Some(0)
            })
        })
}

/// Whether `f` declares an `extern __shared__` array and returns it.
fn returns_dynamic_shared(f: &Node) -> bool {
    let Some(body) = f.children().into_iter().find(|c| c.kind() == K::COMPOUND) else {
        return false;
    };
    let shared = find_kind(body, K::VAR)
        .is_some_and(|v| v.is_shared() && v.tokens().iter().any(|(t, _)| t == "extern"));
    let returns = body.children().iter().any(|c| {
        c.kind() == K::RETURN
            && exprs(c).first().is_some_and(|e| {
                strip(*e)
                    .referenced()
                    .is_some_and(|d| d.kind() == K::VAR && d.is_shared())
            })
    });
    shared && returns
}

/// The type of the object a member call is made on (`b` in `b.sync()`).
pub(super) fn object_type(n: &Node) -> String {
    object_node(n)
        .map(|o| o.ty().canonical().spelling())
        .unwrap_or_default()
}

/// The object a member call `n` is made on (`b` of `b.sync()`).
pub(super) fn object_node<'a>(n: &Node<'a>) -> Option<Node<'a>> {
    exprs(n)
        .first()
        .map(|o| strip(*o))
        .and_then(|o| {
            if o.kind() == K::MEMBER_REF {
                exprs(&o).first().copied()
            } else {
                Some(o)
            }
        })
        .map(strip)
}

/// Whether `d` is declared by the toolkit (a system header) or the
/// built-in headers: modelled by drfscan rather than inlined.
fn from_toolkit(d: &Node) -> bool {
    d.in_system_header() || d.pos().file.starts_with(crate::cuda::prelude::DIR)
}

/// Whether `n` is a cooperative group (an argument of a group's copy).
fn is_group(n: &Node) -> bool {
    group_kind(&strip(*n).ty().canonical().spelling()).is_some()
}

/// A byte count as written, without libcu++'s alignment promise around it
/// (`cuda::aligned_size_t<16>(bytes)`).
fn without_size_wrapper(n: Node) -> Node {
    if !n.ty().canonical().spelling().contains("aligned_size_t") {
        return n;
    }
    // Through the copy, the temporary and the cast to the count.
    let mut at = n;
    for _ in 0..8 {
        let inner = exprs(&at);
        if let Some(count) = inner.iter().find(|c| c.ty().is_integral()) {
            return *count;
        }
        match inner[..] {
            [one] => at = one,
            _ => break,
        }
    }
    n
}

/// Whether `n` calls an integer intrinsic of the toolkit that touches no
/// memory (`__mul24(j, pitch)`, `min(a, b)`): an expression of it is as
/// pure as its operands.
pub(super) fn is_pure_integer_call(n: &Node) -> bool {
    const NAMES: &[&str] = &[
        "__mul24", "__umul24", "min", "max", "umin", "umax", "llmin", "llmax", "abs",
    ];
    n.kind() == K::CALL
        && n.ty().is_integral()
        && n.referenced().is_some_and(|f| {
            f.kind() == K::FUNCTION && NAMES.contains(&f.spelling().as_str()) && from_toolkit(&f)
        })
}

/// A member call that is a query of a cooperative group: it has no
/// effect.
pub(super) fn is_group_query(n: &Node) -> bool {
    n.kind() == K::CALL
        && n.referenced().is_some_and(|f| f.kind() == K::METHOD)
        && (group_query(&object_type(n), &n.spelling()).is_some()
            || group_vector(&object_type(n), &n.spelling()).is_some())
}

/// The built-in vector a query of a cooperative group of type `ty`
/// returns (`block.group_dim()` is `blockDim`, `grid.block_index()` is
/// `blockIdx`), by axis.
pub(super) fn group_vector(ty: &str, name: &str) -> Option<[&'static str; 3]> {
    Some(match (group_kind(ty)?, name) {
        ("thread_block", "group_index") | ("grid_group", "block_index") => builtin::BID,
        ("thread_block" | "grid_group", "thread_index") => builtin::TID,
        ("thread_block", "group_dim" | "dim_threads") => builtin::BLOCK_DIM,
        ("grid_group", "group_dim" | "dim_blocks") => builtin::GRID_DIM,
        _ => return None,
    })
}

/// `q.x` (`.y`, `.z`) of a vector query of a cooperative group
/// (`block.group_dim().x`): the built-in variable it reads.
pub(super) fn group_vector_axis(base: &Node, field: &str) -> Option<Expr> {
    if base.kind() != K::CALL || base.referenced().is_none_or(|f| f.kind() != K::METHOD) {
        return None;
    }
    let names = group_vector(&object_type(base), &base.spelling())?;
    let d = ["x", "y", "z"].iter().position(|a| *a == field)?;
    Some(Expr::var(names[d]))
}

/// The size of a tile type (`thread_block_tile<32, thread_block>`).
fn tile_size(spelling: &str) -> Option<i64> {
    let args = &spelling[spelling.find("thread_block_tile<")? + "thread_block_tile<".len()..];
    let end = args.find([',', '>'])?;
    args[..end]
        .trim()
        .parse()
        .ok()
        .filter(|n: &i64| *n >= 1 && *n <= 32)
}

/// What a query of a cooperative group of type `ty` returns: the ranks and
/// sizes of the block, of a tile of the block and of the grid. `None` for
/// other queries and groups (a coalesced group's ranks depend on which
/// threads are active, a tile of a size only known at run time).
pub(super) fn group_query(ty: &str, name: &str) -> Option<Expr> {
    let block_size = || builtin::product(builtin::BLOCK_DIM);
    let block_rank = || {
        builtin::linear_id(
            |d| Expr::var(builtin::BID[d]),
            |d| Expr::var(builtin::GRID_DIM[d]),
        )
    };
    let blocks = || builtin::product(builtin::GRID_DIM);
    match (group_kind(ty)?, name) {
        ("thread_block", "thread_rank") => Some(linear_tid()),
        ("thread_block", "size" | "num_threads") => Some(block_size()),
        ("thread_block_tile", _) => {
            let n = tile_size(ty)?;
            match name {
                "thread_rank" => Some(Expr::bin(Op::Mod, linear_tid(), Expr::Int(n))),
                "size" | "num_threads" => Some(Expr::Int(n)),
                "meta_group_rank" => Some(Expr::bin(Op::Div, linear_tid(), Expr::Int(n))),
                "meta_group_size" => Some(Expr::bin(
                    Op::Div,
                    Expr::bin(Op::Add, block_size(), Expr::Int(n - 1)),
                    Expr::Int(n),
                )),
                _ => None,
            }
        }
        ("grid_group", "thread_rank") => Some(Expr::bin(
            Op::Add,
            Expr::bin(Op::Mul, block_rank(), block_size()),
            linear_tid(),
        )),
        ("grid_group", "size" | "num_threads") => Some(Expr::bin(Op::Mul, blocks(), block_size())),
        ("grid_group", "block_rank") => Some(block_rank()),
        ("grid_group", "num_blocks") => Some(blocks()),
        _ => None,
    }
}

impl Lower {
    /// The type of the cooperative group `n` names: its own, or, for the
    /// generic `thread_group`, the type of the group it was made from
    /// when the lowering saw that (through conversions, variables and
    /// parameters bound to one, and `tiled_partition(g, n)` of a constant
    /// `n`, which is a tile of `n` threads).
    pub(super) fn group_type(&self, n: &Node) -> String {
        let mut at = strip(*n);
        loop {
            let ty = at.ty().canonical().spelling();
            if group_kind(&ty) != Some("thread_group") {
                return ty;
            }
            if let Some(k) = var_key(&at) {
                let k = self.aliased(k);
                return self.group_types.get(&k).cloned().unwrap_or(ty);
            }
            if at.kind() == K::CALL && at.spelling() == "tiled_partition" {
                let size = at.args().get(1).and_then(|a| a.eval_int());
                return match size {
                    Some(n) if n >= 1 && n <= builtin::WARP_SIZE && n & (n - 1) == 0 => {
                        format!("cooperative_groups::thread_block_tile<{n}>")
                    }
                    _ => ty,
                };
            }
            match exprs(&at)[..] {
                [one] => at = strip(one),
                _ => return ty,
            }
        }
    }

    /// Binds variable `k`, declared of type `ty`, to the group `init`
    /// holds when `ty` is the generic `thread_group`; forgets what it held.
    pub(super) fn bind_group(&mut self, k: &str, ty: &str, init: Option<&Node>) {
        if group_kind(ty) != Some("thread_group") {
            return;
        }
        match init.map(|i| self.group_type(i)) {
            Some(t) if group_kind(&t).is_some_and(|g| g != "thread_group") => {
                self.group_types.insert(k.to_string(), t);
            }
            _ => {
                self.group_types.remove(k);
            }
        }
    }

    /// The type of the group a member call `n` is made on (see
    /// [`Lower::group_type`]).
    fn object_group_type(&self, n: &Node) -> String {
        match object_node(n) {
            Some(o) => self.group_type(&o),
            None => String::new(),
        }
    }

    /// The variable holding the structure `src` names, with the fields
    /// of a kernel parameter made first (they are made when first read),
    /// so that a copy of it has them all.
    pub(super) fn record_variable(&mut self, src: &Node) -> R<Option<String>> {
        let src = strip(*src);
        let LVal::Var(from) = self.lvalue(&src)? else {
            return Ok(None);
        };
        for f in src.record_fields() {
            let name = f.spelling();
            let (qualified, is_param) = self.member_path(&src, &name);
            if is_param && !self.env.contains_key(&format!("{from}.{name}")) {
                self.field(&from, &name, &f, qualified, true);
            }
        }
        Ok(Some(from))
    }

    /// The values of the fields of the structure `src` is, in order and
    /// through nested structures, when each is a number this lowering
    /// knows (a uniform value becomes its variable): `src` names a
    /// structure variable, or calls a function whose `return` names one
    /// (`make_float2(a, b)`). With whether `src` was evaluated here, as a
    /// call is.
    fn record_value(&mut self, src: &Node) -> R<(bool, Option<Vec<Expr>>)> {
        let src = strip(*src);
        if !src.is_plain_record() {
            return Ok((false, None));
        }
        let (evaluated, from) = match src.kind() {
            K::DECL_REF => (false, self.record_variable(&src)?),
            K::CALL => match self.returned_record(&src)? {
                Some((from, _)) => (true, from),
                None => (false, None),
            },
            _ => (false, None),
        };
        let Some(from) = from else {
            return Ok((evaluated, None));
        };
        let mut keys = Vec::new();
        if !super::stmt::scalar_fields(&src, &from, &mut keys, 0) {
            return Ok((evaluated, None));
        }
        let fields: Option<Vec<Expr>> = keys.into_iter().map(|k| self.field_value(k)).collect();
        Ok((evaluated, fields))
    }

    /// The value of the field held in `k` when it is a number this
    /// lowering knows (a uniform value becomes its variable).
    fn field_value(&mut self, k: String) -> Option<Expr> {
        match self.env.get(&k).cloned() {
            Some(Val::Int(e)) if !too_big(&e) => Some(simplify(&e)),
            Some(Val::Float(bits)) => Some(Expr::Int(bits as i64)),
            Some(v @ (Val::Uniform | Val::Stored(..))) => {
                let e = self.materialize(v, "field");
                self.env.insert(k, Val::Int(e.clone()));
                Some(e)
            }
            _ => None,
        }
    }

    /// Copies the structure held in variable `from` into variable `to`:
    /// every field known so far, nested ones too; `to`'s old fields go.
    pub(super) fn copy_record(&mut self, to: &str, from: Option<&str>) {
        let prefix = format!("{to}.");
        self.forget_fields(to);
        self.param_records.remove(to);
        let Some(from) = from else {
            return;
        };
        // A copy of a parameter has the parameter's fields, those not read
        // yet too.
        let held: Vec<(String, String)> = self
            .param_records
            .iter()
            .filter_map(|(k, path)| {
                let rest = k.strip_prefix(from)?;
                (rest.is_empty() || rest.starts_with('.'))
                    .then(|| (format!("{to}{rest}"), path.clone()))
            })
            .collect();
        self.param_records.extend(held);
        let from = format!("{from}.");
        let fields: Vec<(String, Val)> = self
            .env
            .iter()
            .filter_map(|(k, v)| {
                k.strip_prefix(&from)
                    .map(|f| (format!("{prefix}{f}"), v.clone()))
            })
            .collect();
        self.env.extend(fields);
    }

    /// Drops what is known of the fields of the structure variable `var`,
    /// nested ones too: it holds another structure now.
    pub(super) fn forget_fields(&mut self, var: &str) {
        let prefix = format!("{var}.");
        self.env.retain(|k, _| !k.starts_with(&prefix));
        self.inputs.retain(|k, _| !k.starts_with(&prefix));
        self.param_records.retain(|k, _| !k.starts_with(&prefix));
    }

    /// Puts back the bindings `saved` holds as they were before (none
    /// where there was none), the last saved first.
    fn restore_env(&mut self, saved: Vec<(String, Option<Val>)>) {
        for (k, v) in saved.into_iter().rev() {
            match v {
                Some(v) => self.env.insert(k, v),
                None => self.env.remove(&k),
            };
        }
    }

    /// The cell a libcu++ `atomic_ref` is made to refer to (`r(a[i])`, `=
    /// cuda::atomic_ref<int>(*p)`, or a copy of another reference).
    pub(super) fn referenced_cell(&mut self, init: &Node) -> R<Option<Ptr>> {
        let mut at = strip(*init);
        loop {
            let is_ctor =
                at.kind() == K::CALL && at.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR);
            match (is_ctor, &exprs(&at)[..]) {
                (true, [one]) => {
                    let one = strip(*one);
                    if atomic_kind(&one.ty().canonical().spelling()).is_some() {
                        at = one;
                        continue;
                    }
                    return Ok(match self.lvalue(&one)? {
                        LVal::Mem(m) => Some(m),
                        _ => None,
                    });
                }
                _ => break,
            }
        }
        Ok(match self.rvalue(&at)? {
            Val::Ptr(p) => Some(p),
            _ => None,
        })
    }

    /// `T v(a, b)` or `T v = T(a, b)` with a constructor that only sets
    /// fields from its number and pointer parameters (`dim3(x, y, z) :
    /// x(x), y(y), z(z) {}`): the fields of the structure variable `var` get those
    /// values. False, with nothing evaluated, for any other initializer.
    pub(super) fn construct(&mut self, var: &str, init: &Node) -> R<bool> {
        let mut at = strip(*init);
        fn ctor_of<'t>(n: &Node<'t>) -> Option<Node<'t>> {
            (n.kind() == K::CALL)
                .then(|| n.referenced())
                .flatten()
                .filter(|c| c.kind() == K::CONSTRUCTOR)
        }
        // Through copies of the temporary.
        while let (Some(_), [one]) = (ctor_of(&at), &exprs(&at)[..]) {
            if !strip(*one).ty().is_record() {
                break;
            }
            at = strip(*one);
        }
        let Some(def) = ctor_of(&at).and_then(|c| c.definition()) else {
            return Ok(false);
        };
        self.construct_with(var, &def, &at.args())
    }

    /// `construct` by the constructor `def` on `args`.
    pub(super) fn construct_with(&mut self, var: &str, def: &Node, args: &[Node]) -> R<bool> {
        let mut params = Vec::new();
        let mut fields: Vec<(String, Node)> = Vec::new();
        let mut field = None;
        // Base classes' constructors (`View(T *d) : Base<T>(d) {}`), each
        // named, then called.
        let mut bases: Vec<Node> = Vec::new();
        let mut base_named = false;
        for c in def.children() {
            match c.kind() {
                K::PARM => params.push(c),
                K::TYPE_REF | K::TEMPLATE_REF if field.is_none() => base_named = true,
                K::CALL
                    if base_named && c.referenced().is_some_and(|r| r.kind() == K::CONSTRUCTOR) =>
                {
                    bases.push(c);
                    base_named = false;
                }
                // The base's template arguments (`Base<T, N - 1>`).
                _ if base_named && c.is_expression() => {}
                // A member initializer: the field, then its value.
                K::MEMBER if field.is_none() => field = Some(c.spelling()),
                K::COMPOUND if c.children().is_empty() && field.is_none() => {}
                _ if c.is_attribute() => {}
                _ if c.is_expression() && field.is_some() => {
                    fields.push((field.take().unwrap_or_default(), c));
                }
                // A base class, a delegated constructor or a body.
                _ => return Ok(false),
            }
        }
        // Numbers and pointers (`MinK(float *keys, int K) : keys(keys),
        // K(K)`): a method's access through the field reaches the
        // argument's memory.
        let scalar = |p: &Node| {
            let t = p.ty();
            let t = if t.is_reference() { t.pointee() } else { t };
            !t.is_record() && (t.is_integral() || t.is_floating() || t.is_pointer())
        };
        // An initializer that reads the object (another field) needs it.
        let reads_object = fields.iter().any(|(_, e)| {
            find_kind(*e, K::MEMBER_REF).is_some() || find_kind(*e, K::THIS).is_some()
        });
        let base_ctors: Option<Vec<(Node, Vec<Node>)>> = bases
            .iter()
            .map(|b| {
                b.referenced()
                    .filter(|c| c.kind() == K::CONSTRUCTOR)
                    .and_then(|c| c.definition())
                    .map(|d| (d, b.args()))
            })
            .collect();
        let Some(base_ctors) = base_ctors else {
            return Ok(false);
        };
        if (fields.is_empty() && base_ctors.is_empty())
            || field.is_some()
            || base_named
            || reads_object
            || !params.iter().all(scalar)
        {
            return Ok(false);
        }
        let mut given = Vec::new();
        for (i, p) in params.iter().enumerate() {
            match default_argument(args.get(i), p).or_else(|| args.get(i).copied()) {
                Some(a) => given.push((p, a)),
                None => return Ok(false),
            }
        }
        let mut saved = Vec::new();
        let mut referenced = Vec::new();
        for (p, a) in given {
            let pk = key(p);
            // A reference (`atomic_ref(T &x) : p(&x)`): the cell or local
            // it binds, as a call binds one.
            let v = if p.ty().is_reference() {
                referenced.push((pk.clone(), self.aliases.remove(&pk)));
                match self.lvalue(&a)? {
                    LVal::Var(v) => {
                        self.aliases.insert(pk.clone(), v);
                        Val::Unknown
                    }
                    LVal::Mem(m) => {
                        self.aliases.insert(pk.clone(), format!("*{pk}"));
                        Val::Ptr(m)
                    }
                    LVal::Unknown => Val::Unknown,
                }
            } else {
                self.rvalue(&a)?
            };
            saved.push((pk.clone(), self.env.insert(pk, v)));
        }
        // The bases' fields first, from the arguments just bound.
        for (base, base_args) in &base_ctors {
            if !self.construct_with(var, base, base_args)? {
                self.restore_env(saved);
                return Ok(false);
            }
        }
        let mut values = Vec::new();
        for (name, e) in &fields {
            values.push((format!("{var}.{name}"), self.rvalue(e)?));
        }
        for (pk, alias) in referenced {
            match alias {
                Some(a) => self.aliases.insert(pk, a),
                None => self.aliases.remove(&pk),
            };
        }
        self.restore_env(saved);
        for (k, v) in values {
            if v != Val::Unknown {
                self.env.insert(k, v);
            }
        }
        Ok(true)
    }

    /// A structure value that is no variable (`View(p, s)`, `make(p)`,
    /// `View{p, s}`) held in a fresh variable with the fields its
    /// constructor, its function's `return` or its list gave; `None`, with
    /// `e` left unevaluated, for other expressions.
    pub(super) fn temporary_record(&mut self, e: &Node) -> R<Option<String>> {
        if !strip(*e).ty().is_record() {
            return Ok(None);
        }
        let var = self.name("temporary");
        if self.construct(&var, e)? {
            return Ok(Some(var));
        }
        if let Some(list) = braced_list(*e) {
            self.init_fields(&var, &list)?;
            return Ok(Some(var));
        }
        Ok(match self.returned_record(e)? {
            Some((from, _)) => {
                self.copy_record(&var, from.as_deref());
                Some(var)
            }
            None => None,
        })
    }

    /// When `init` is a call of a function (through the copies of its
    /// result around it), evaluates it and gives its value and the
    /// structure variable its one `return` names, if it does (`return
    /// sub;`). `None`, and `init` left unevaluated, for other expressions.
    pub(super) fn returned_record(&mut self, init: &Node) -> R<Option<(Option<String>, Val)>> {
        let mut at = strip(*init);
        while at.kind() == K::CALL && at.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR) {
            match exprs(&at)[..] {
                [one] => at = strip(one),
                _ => return Ok(None),
            }
        }
        if at.kind() != K::CALL
            || at
                .referenced()
                .is_none_or(|f| !matches!(f.kind(), K::FUNCTION | K::METHOD))
        {
            return Ok(None);
        }
        self.returned_record = None;
        let v = self.rvalue(init)?;
        let call = loc_of(&at);
        let from = self
            .returned_record
            .take()
            .filter(|(l, _)| *l == call)
            .map(|(_, k)| k);
        Ok(Some((from, v)))
    }

    /// `cg::memcpy_async(g, dst, src, bytes)`: the group copies the bytes
    /// together, each member the cells from its rank on, a group's size
    /// apart (a partition of the cells, as the library's is), reading the
    /// source and writing the destination before the group's `wait`.
    /// `None` for groups without a rank and size drfscan names.
    fn group_copy(&mut self, args: &[Node], loc: Loc) -> R<Option<Val>> {
        let ty = self.group_type(&args[0]);
        let (rank, size) = match group_kind(&ty) {
            Some("thread_block") => (linear_tid(), builtin::product(builtin::BLOCK_DIM)),
            Some("thread_block_tile") => {
                match (group_query(&ty, "thread_rank"), group_query(&ty, "size")) {
                    (Some(r), Some(n)) => (r, n),
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let (Some(dst), Some(src)) = (self.pointer(&args[1])?, self.pointer(&args[2])?) else {
            return Ok(None);
        };
        let bytes = self.int(&args[3], "bytes")?;
        for (p, mode) in [(src, Mode::Read), (dst, Mode::Write)] {
            let count = memory::cell_count(&p, &bytes);
            // Member `rank` copies cells `rank + k * size` below `count`.
            let k = self.name("copy_step");
            let at = Expr::add(
                rank.clone(),
                Expr::bin(Op::Mul, Expr::var(&k), size.clone()),
            );
            let q = memory::at_cell(&p, at.clone());
            let inside = Cond::cmp(Rel::Lt, at, count.clone());
            self.access_each(k, count, Some(inside), &q, mode, loc);
        }
        Ok(Some(Val::Unknown))
    }

    /// `sync()` of a cooperative group of type `ty`: a barrier of the block
    /// or of the grid, or a warp's; no barrier, said, for the other groups;
    /// `None` for what is not a cooperative group.
    pub(super) fn group_sync(&mut self, ty: &str, loc: Loc) -> Option<Val> {
        match group_kind(ty)? {
            "thread_block" => self.sync(loc),
            "grid_group" | "multi_grid_group" => self.grid_sync(loc),
            // A whole warp's tile is `__syncwarp()`; a smaller tile orders
            // only some lanes of a warp, which is not modelled.
            "thread_block_tile" if tile_size(ty) == Some(builtin::WARP_SIZE) => {
                if self.warp_is_block {
                    self.sync(loc)
                } else {
                    self.warp_sync(loc)
                }
            }
            // A tile smaller than a warp, a coalesced group, a generic
            // group the lowering did not see made: a race its barrier
            // would order is then only possible.
            _ => self.approximate(
                "the barrier of a group smaller than a warp, or of a group drfscan cannot name, is not modelled",
            ),
        }
        Some(Val::Unknown)
    }

    /// An operation of a libcu++ atomic (`r.fetch_add(1)`, `flag.store(1)`,
    /// `count++` on a `cuda::atomic_ref` or `cuda::atomic`): the runtime's
    /// atomic of the same effect on the cell the object refers to or is.
    /// Loads are atomics too, so they race with plain writes and, unlike a
    /// real atomic load, with plain reads. `None` when `n` is no such call.
    fn atomic_method(&mut self, n: &Node, name: &str) -> R<Option<Val>> {
        // The runtime atomic each operation is, for the lock and ticket
        // models; `None` for what touches no memory.
        let runtime = match name {
            "fetch_add" | "operator++" | "operator+=" => Some("atomicAdd"),
            "fetch_sub" | "operator--" | "operator-=" => Some("atomicSub"),
            "fetch_and" | "operator&=" => Some("atomicAnd"),
            "fetch_or" | "operator|=" => Some("atomicOr"),
            "fetch_xor" | "operator^=" => Some("atomicXor"),
            "fetch_min" => Some("atomicMin"),
            "fetch_max" => Some("atomicMax"),
            "exchange" | "store" | "operator=" => Some("atomicExch"),
            "compare_exchange_strong" | "compare_exchange_weak" => Some("atomicCAS"),
            "test_and_set" => Some("atomicExch"),
            "clear" => Some("atomicExch"),
            "load" | "test" => Some("atomicAdd"),
            _ if name.starts_with("operator ") => Some("atomicAdd"),
            "wait" | "notify_one" | "notify_all" | "is_lock_free" => None,
            _ => return Ok(None),
        };
        let loc = loc_of(n);
        let Some((object, cell)) = self.atomic_cell(n)? else {
            return Ok(None);
        };
        let args: Vec<Node> = n.args();
        // An operator's object is its first argument; a member call's is in
        // its callee.
        let args: Vec<Node> = match args.first() {
            Some(a) if strip(*a).same(&object) || name.starts_with("operator") => {
                args.into_iter().skip(1).collect()
            }
            _ => args,
        };
        let mut operands = Vec::new();
        for a in &args {
            if a.ty().is_integral() || a.ty().is_floating() || a.ty().is_reference() {
                operands.push(self.rvalue(a)?);
            }
        }
        let Some(runtime) = runtime else {
            return Ok(Some(Val::Unknown));
        };
        let Some(mut p) = cell else {
            return unsupported(n, "atomic on a pointer of unknown origin");
        };
        p.at_cell();
        let operands: Vec<Val> = match name {
            "operator++" | "operator--" | "test_and_set" => vec![Val::Int(Expr::Int(1))],
            "clear" => vec![Val::Int(Expr::Int(0))],
            "load" | "test" => vec![Val::Int(Expr::Int(0))],
            // Orders after the values.
            "fetch_add" | "fetch_sub" | "fetch_and" | "fetch_or" | "fetch_xor" | "fetch_min"
            | "fetch_max" | "exchange" | "store" => operands.into_iter().take(1).collect(),
            "compare_exchange_strong" | "compare_exchange_weak" => {
                operands.into_iter().take(2).collect()
            }
            _ => operands,
        };
        // A release (or stronger) order makes the accesses before the
        // atomic visible first, as a fence before it does.
        if matches!(name, "store" | "exchange" | "clear" | "operator=") && releases(&args) {
            self.lock_fence();
        }
        let v = self.atomic_access(runtime, &p, Mode::Atomic, &operands, loc);
        if name.starts_with("compare_exchange") {
            // The old value lands in `expected`.
            if let Some(e) = args.first() {
                if let LVal::Var(v) = self.lvalue(e)? {
                    self.env.insert(v, Val::Unknown);
                }
            }
            return Ok(Some(Val::Unknown));
        }
        Ok(Some(v))
    }

    /// The object of the libcu++ atomic operation `n`, and the cell it
    /// refers to or is (`None` when its origin is not known); `None` when
    /// `n` is no operation of an atomic.
    pub(super) fn atomic_cell<'a>(&mut self, n: &Node<'a>) -> R<Option<(Node<'a>, Option<Ptr>)>> {
        let Some((object, kind, through)) = atomic_object(n) else {
            return Ok(None);
        };
        let cell = match kind {
            // A reference reached through a pointer: which cell is not
            // followed.
            AtomicKind::Ref if through => None,
            AtomicKind::Ref => match self.rvalue(&object)? {
                Val::Ptr(p) => Some(p),
                _ => None,
            },
            AtomicKind::Object if through => self.pointer(&object)?,
            _ => match self.lvalue(&object)? {
                LVal::Mem(m) => Some(m),
                _ => None,
            },
        };
        Ok(Some((object, cell)))
    }

    /// The runtime atomic `name(p, operands…)` on the cell `p`: a lock it
    /// gives back, the access, and what it returns.
    fn atomic_access(
        &mut self,
        name: &str,
        p: &Ptr,
        mode: Mode,
        operands: &[Val],
        loc: Loc,
    ) -> Val {
        self.lock_release(name, p, operands);
        // A ticket's own atomic is not an access between a fence and it.
        let fenced = self.unfenced;
        self.access(p, mode, loc);
        let accessed = std::mem::replace(&mut self.unfenced, fenced);
        let v = self.atomic_result(name, p, operands);
        self.unfenced |= accessed;
        v
    }

    /// What an atomic on `p` returns: a ticket when it adds (subtracts) a
    /// constant of at least 1 to one cell the block or grid shares, else
    /// unknown.
    pub(super) fn atomic_result(&mut self, name: &str, p: &Ptr, operands: &[Val]) -> Val {
        let Target::Shared(array) = &p.target else {
            return Val::Unknown;
        };
        if !p.alts.is_empty() {
            return Val::Unknown;
        }
        let base = name.trim_end_matches("_block").trim_end_matches("_system");
        let step = match operands {
            [Val::Int(Expr::Int(c))] if *c >= 1 => Some(c),
            _ => None,
        };
        let one_cell = p.index.iter().all(|i| self.block_uniform(i));
        let grid = one_cell
            && self.global(array)
            && p.index
                .iter()
                .all(|i| self.grid_uniform(&Val::Int(i.clone())));
        // `atomicInc(&n, 0xffffffff)` wraps where 32-bit addition does:
        // `atomicAdd(&n, 1)` by another name.
        let never_wraps = matches!(
            (base, operands),
            ("atomicInc", [Val::Int(Expr::Int(m))]) if *m == u32::MAX as i64 || *m == -1
        );
        // `atomicInc(&done, gridDim.x)` wraps only past the last block: a
        // ticket where each block takes one.
        let by_one = match (base, operands) {
            ("atomicAdd", [Val::Int(Expr::Int(1))]) => true,
            ("atomicInc", _) if never_wraps => true,
            ("atomicInc", [Val::Int(m)]) => {
                // The launch's grid, when it fixes one, is a constant here.
                let fixed = self
                    .launch
                    .iter()
                    .find(|(n, _)| n == builtin::GRID_DIM[0])
                    .map(|(_, v)| Expr::Int(*v));
                let m = simplify(m);
                m == Expr::var(builtin::GRID_DIM[0]) || Some(&m) == fixed.as_ref()
            }
            _ => false,
        };
        let block_site = if grid && by_one {
            self.block_ticket_site()
        } else {
            None
        };
        // A group's leader adding its group's size takes a range for it.
        let lead = match (base, operands) {
            ("atomicAdd", [Val::Int(amount)]) => self.leading_group(amount),
            _ => None,
        };
        let way = match (base, step) {
            ("atomicAdd", Some(_)) => Some(1),
            ("atomicAdd", None) if lead.is_some() => Some(1),
            ("atomicSub", Some(_)) => Some(-1),
            ("atomicInc", _) if never_wraps || block_site.is_some() => Some(1),
            _ => None,
        };
        self.atomics.push((array.clone(), p.cell_index(), way));
        // A group's range needs one counter for all.
        if way.is_none() || (!one_cell && step.is_none()) {
            return Val::Unknown;
        }
        let local = self.local("ticket");
        let Expr::Var(name) = &local else {
            return Val::Unknown;
        };
        self.ticket_loops
            .insert(name.clone(), self.loop_vars.last().cloned());
        if let Some(g) = lead.filter(|_| one_cell) {
            self.group_leads.push((name.clone(), g));
        }
        let mut ticket = crate::protocol::Ticket {
            local: name.clone(),
            grid,
            block: false,
            phase: None,
            group: None,
            cell: None,
            counts_up: way == Some(1) && step.is_some(),
            counter: Some(array.clone()),
        };
        if !one_cell {
            // A counter per row: the cell travels with the ticket, and
            // threads of other blocks share it when the array is global.
            ticket.grid = self.global(array);
            ticket.cell = Some(p.cell_index());
            self.tickets.push((ticket, array.clone(), p.cell_index()));
            return Val::Int(local);
        }
        if let Some((fixed, select, syncs_before)) = block_site {
            ticket.block = true;
            if self.block_ticket.is_some() {
                self.ticket_conflict = true;
            }
            self.block_ticket = Some(BlockTicket {
                local: name.clone(),
                fixed,
                fenced: !self.unfenced,
                select,
                syncs_before,
            });
            if self.order_by_ticket.is_some() {
                self.ticket_taken = true;
                // The accesses that name the phase are all lowered by the
                // end; a ticket with none orders nothing.
                ticket.phase = Some(self.phase_local());
            }
        }
        self.tickets.push((ticket, array.clone(), p.cell_index()));
        Val::Int(local)
    }

    /// Where a ticket taken now is the block's own: outside loops, under
    /// conditions on the block and ones only thread 0 meets along some
    /// axes (`tid == 0`): those axes, the conditions on the thread, and
    /// the barriers lowered up to the last one every thread reaching here
    /// passes.
    fn block_ticket_site(&self) -> Option<([bool; 3], Vec<Cond>, usize)> {
        if self.no_block_tickets || !self.outside_loops() {
            return None;
        }
        let (around, select) = self.thread_zero_path()?;
        let fixed = [0, 1, 2].map(|d| {
            let t = Expr::var(builtin::TID[d]);
            let zero = Cond::cmp(Rel::Eq, t.clone(), Expr::Int(0));
            let zero_rev = Cond::cmp(Rel::Eq, Expr::Int(0), t);
            select.iter().any(|c| *c == zero || *c == zero_rev)
        });
        if !fixed[0] {
            return None;
        }
        let syncs_before = self
            .sync_paths
            .iter()
            .rposition(|p| {
                p.as_ref()
                    .is_some_and(|p| p.iter().all(|c| around.contains(c)))
            })
            .map_or(0, |i| i + 1);
        Some((fixed, select, syncs_before))
    }

    /// `c` a precondition of the kernel (`__requires`, `__axiom`).
    pub(super) fn require(&mut self, c: Cond) {
        self.note_powers(&c);
        self.prog.assumes.push(c);
    }

    /// The variables a kernel's precondition makes powers of two
    /// (`__requires(__is_pow2(n))`): masks by them are remainders.
    fn note_powers(&mut self, c: &Cond) {
        match c {
            Cond::And(a, b) => {
                self.note_powers(a);
                self.note_powers(b);
            }
            Cond::Cmp(Rel::Eq, Expr::Bin(Op::BitAnd, x, less), zero)
                if *zero == Expr::Int(0)
                    && simplify(&Expr::add((**less).clone(), Expr::Int(1))) == **x =>
            {
                if let Expr::Var(v) = &**x {
                    self.powers.insert(v.clone());
                }
            }
            _ => {}
        }
    }

    /// Calls drfscan knows by name (barriers, atomics, cache-hinted loads
    /// and stores, `__requires`, integer `min`/`max`), resolved or not: in
    /// a template analysed uninstantiated, `atomicAdd(&s[i], v)` over a
    /// `T *s` names no declaration, only these names.
    fn builtin_call(&mut self, n: &Node, name: &str, args: &[Node], loc: Loc) -> R<Option<Val>> {
        match name {
            // A shared address as a number, for inline PTX's memory
            // operands: the pointer, counting in bytes.
            "__cvta_generic_to_shared" if args.len() == 1 => {
                return Ok(Some(match self.pointer(&args[0])? {
                    Some(p) => Val::Ptr(p.in_bytes()),
                    None => Val::Unknown,
                }));
            }
            "__syncthreads"
            | "__syncthreads_count"
            | "__syncthreads_and"
            | "__syncthreads_or"
            | "__barrier_sync" => {
                for a in args {
                    self.rvalue(a)?;
                }
                self.sync(loc);
                if !name.starts_with("__syncthreads_") {
                    return Ok(Some(Val::Unknown));
                }
                // The barrier hands every thread of the block the same
                // count: loops and branches on it (`while
                // (__syncthreads_or(changed))`) are the block's.
                let v = self.local(name.trim_start_matches("__"));
                if let Expr::Var(local) = &v {
                    self.prog.block_uniform.push(local.clone());
                }
                return Ok(Some(Val::Int(v)));
            }
            "surf1Dwrite" | "surf2Dwrite" | "surf3Dwrite" | "surf1DLayeredwrite"
            | "surf2DLayeredwrite" | "surfCubemapwrite" | "surf1Dread" | "surf2Dread"
            | "surf3Dread" | "surf1DLayeredread" | "surf2DLayeredread" | "surfCubemapread" => {
                if let Some(v) = self.surface_access(n, name, args, loc)? {
                    return Ok(Some(v));
                }
            }
            "load_matrix_sync" | "store_matrix_sync" => {
                if let Some(v) = self.matrix_sync(name == "store_matrix_sync", args, loc)? {
                    return Ok(Some(v));
                }
            }
            // Products and fills of fragments: a warp's registers only.
            "fill_fragment" | "mma_sync" | "bmma_sync"
                if args.first().is_some_and(|a| is_fragment(a)) =>
            {
                return Ok(Some(Val::Unknown));
            }
            // A value one lane holds, for the lanes of its group: the same
            // for all of them when they all name that lane.
            "__shfl_sync" | "__shfl" if args.len() >= 2 => {
                let at = usize::from(name == "__shfl_sync");
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.rvalue(a)?);
                }
                let lane = vals.get(at + 1);
                let width = match args.get(at + 2) {
                    // Left to its default (also when clang lists it).
                    None => Some(builtin::WARP_SIZE),
                    Some(w) if w.tokens().is_empty() => Some(builtin::WARP_SIZE),
                    Some(w) => self.constant_of(w),
                };
                let leader = match lane.map(|l| match l {
                    Val::Int(e) => simplify(e),
                    _ => Expr::Int(-1),
                }) {
                    Some(Expr::Var(l)) if width == Some(builtin::WARP_SIZE) => {
                        self.leaders.get(&l).cloned()
                    }
                    _ => None,
                };
                if let (Some(g), Some(Val::Int(v))) = (leader, vals.get(at)) {
                    let v = v.clone();
                    return Ok(Some(self.leader_range(&v, g)));
                }
                return Ok(Some(match (lane, width) {
                    (Some(Val::Int(l)), Some(w))
                        if self.block_uniform(l) && !n.ty().is_integral() =>
                    {
                        self.collective(Expr::Int(w))
                    }
                    _ => Val::Unknown,
                }));
            }
            "__activemask" if args.is_empty() => return Ok(Some(self.active_mask())),
            "__ballot_sync" | "__ballot" if !args.is_empty() => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.rvalue(a)?);
                }
                let all_vote = match vals.last() {
                    Some(Val::Int(e)) => matches!(simplify(e), Expr::Int(c) if c != 0),
                    _ => false,
                };
                if !all_vote {
                    return Ok(Some(Val::Unknown));
                }
                // Within a group's mask, the same group.
                if let (true, Some(Val::Int(m))) = (args.len() == 2, vals.first()) {
                    if self.mask_group(m).is_some() {
                        return Ok(Some(Val::Int(m.clone())));
                    }
                }
                return Ok(Some(self.active_mask()));
            }
            "__popc" | "__ffs" if args.len() == 1 => {
                let Val::Int(e) = self.rvalue(&args[0])? else {
                    return Ok(Some(Val::Unknown));
                };
                if name == "__popc" {
                    return Ok(Some(self.mask_count(&e).map_or(Val::Unknown, Val::Int)));
                }
                let Some(g) = self.mask_group(&e) else {
                    return Ok(Some(Val::Unknown));
                };
                // The leader's lane, counted from 1.
                let leader = self.local("leader");
                if let Expr::Var(l) = &leader {
                    self.leaders.insert(l.clone(), g);
                }
                return Ok(Some(Val::Int(Expr::add(leader, Expr::Int(1)))));
            }
            // `cg::reduce(tile, v, op)`: the tile's reduction, handed to
            // every member.
            "reduce" if args.len() == 3 && n.referenced().is_some_and(|f| from_toolkit(&f)) => {
                let size = tile_size(&strip(args[0]).ty().canonical().spelling());
                if let Some(size) = size.filter(|_| !n.ty().is_integral()) {
                    for a in args {
                        self.rvalue(a)?;
                    }
                    return Ok(Some(self.collective(Expr::Int(size))));
                }
            }
            "__syncwarp" => {
                for a in args {
                    self.rvalue(a)?;
                }
                if self.warp_is_block {
                    self.sync(loc);
                } else {
                    self.warp_sync(loc);
                }
                return Ok(Some(Val::Unknown));
            }
            "__threadfence" | "__threadfence_system" => {
                self.unfenced = false;
                self.lock_fence();
                return Ok(Some(Val::Unknown));
            }
            "__requires" | "__assume" => {
                if let Some(a) = args.first() {
                    let c = self.cond(a)?;
                    let in_loop = !self.loop_vars.is_empty();
                    if self.path.is_empty() && !in_loop && self.stack.len() == 1 {
                        self.require(c);
                    }
                }
                return Ok(Some(Val::Unknown));
            }
            "__mul24" | "__umul24" if args.len() == 2 => {
                let a = self.rvalue(&args[0])?;
                let b = self.rvalue(&args[1])?;
                return Ok(Some(self.arith(op::MUL, a, b)));
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax"
                if args.len() == 2 && n.ty().is_integral() =>
            {
                let a = self.rvalue(&args[0])?;
                let b = self.rvalue(&args[1])?;
                return Ok(Some(match (a, b) {
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
                }));
            }
            _ => {}
        }
        if let Some(v) = self.byte_copy(name, args, loc)? {
            return Ok(Some(v));
        }
        if let Some(mode) = atomic_mode(name) {
            let Some(target) = args.first() else {
                return Ok(Some(Val::Unknown));
            };
            let p = self.pointer(target)?;
            let mut operands = Vec::new();
            for a in args.iter().skip(1) {
                operands.push(self.rvalue(a)?);
            }
            let Some(mut p) = p else {
                return unsupported(n, "atomic on a pointer of unknown origin");
            };
            p.at_cell();
            return Ok(Some(self.atomic_access(name, &p, mode, &operands, loc)));
        }
        if name == "__ldg"
            || name.starts_with("__ldc")
            || name.starts_with("__ldlu")
            || name.starts_with("__ldcs")
        {
            // Cached loads: a read of `*p`.
            if let Some(a) = args.first() {
                if let Some(mut p) = self.pointer(a)? {
                    p.at_cell();
                    return Ok(Some(self.read(&p, loc)));
                }
            }
            return Ok(Some(Val::Unknown));
        }
        if matches!(name, "__stcg" | "__stcs" | "__stwb" | "__stwt") && args.len() == 2 {
            // Cache-hinted stores: a write of `*p`.
            let Some(mut p) = self.pointer(&args[0])? else {
                return unsupported(n, format!("`{name}` through a pointer of unknown origin"));
            };
            p.at_cell();
            let v = self.rvalue(&args[1])?;
            self.write(&p, &v, loc);
            return Ok(Some(Val::Unknown));
        }
        Ok(None)
    }

    pub(super) fn call(&mut self, n: &Node) -> R<Val> {
        let loc = loc_of(n);
        let callee = n.referenced();
        let args: Vec<Node> = n.args();
        let Some(f) = callee else {
            // No declaration: a call through a pointer, or a dependent call
            // in a template.
            let ch = exprs(n);
            // The unresolved name a dependent call in a template calls.
            let overloaded = ch
                .first()
                .and_then(|c| strip(*c).referenced())
                .filter(|r| r.kind() == K::OVERLOADED_REF);
            if let Some(r) = overloaded {
                if let Some(v) = self.builtin_call(n, &r.spelling(), &args, loc)? {
                    return Ok(v);
                }
                // Any candidate may be the one called.
                for d in r.overloaded_decls() {
                    self.note_callee(&d.definition().unwrap_or(d));
                }
            }
            // One that has one definition in scope (`shared_memory<T>()`):
            // inlined.
            // Of several, the one whose parameters take the arguments
            // (`transpose(a, s, 66, l, 8)` beside `transpose(a, s, 66, l,
            // int *il)`).
            let defined: Vec<Node> = overloaded.map_or_else(Vec::new, |r| {
                defined_overloads(&r)
                    .into_iter()
                    .filter(|d| takes(d, &args))
                    .collect()
            });
            // Only explicit specializations have bodies: those whose
            // arguments agree with the values the call writes.
            let defined = match (defined.is_empty(), overloaded) {
                (true, Some(r)) => self.specializations_named(&r, &strip(ch[0]), &args)?,
                _ => defined,
            };
            match defined.as_slice() {
                [one] => return self.inline_specialized(n, one, &args, &strip(ch[0])),
                // Several (`store(float *, float)` and `store(int *,
                // int)`): the instantiation picks one, the same for every
                // thread; each runs on a branch of its own.
                [_, _, ..] if defined.len() <= MAX_OVERLOADS => {
                    return self.each_overload(n, &defined, &args, &strip(ch[0]), loc);
                }
                _ => {}
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
            if let Some((o, ops)) = pointer_operator(n) {
                return match (o.as_str(), ops.as_slice()) {
                    ("operator*", _) => self.load(n),
                    // `p += k`, `++p`, `p++` on a `T *p`: the pointer moves.
                    ("operator+=" | "operator-=" | "operator++" | "operator--", [a, rest @ ..]) => {
                        let lv = self.lvalue(a)?;
                        let before = self.rvalue(a)?;
                        let by = match (o.as_str(), rest) {
                            ("operator+=" | "operator-=", [b]) => self.rvalue(b)?,
                            _ => Val::Int(Expr::Int(1)),
                        };
                        let bop = if o.ends_with('-') || o.ends_with("-=") {
                            op::SUB
                        } else {
                            op::ADD
                        };
                        let after = self.arith(bop, before.clone(), by);
                        self.store(&lv, after.clone(), loc);
                        // A postfix step (`p++`) is written after its operand.
                        let postfix = n
                            .tokens()
                            .first()
                            .is_some_and(|(t, _)| t != "++" && t != "--");
                        let incdec = matches!(o.as_str(), "operator++" | "operator--");
                        Ok(if incdec && postfix { before } else { after })
                    }
                    ("operator&", [a]) => Ok(match self.lvalue(a)? {
                        LVal::Mem(p) => Val::Ptr(p),
                        _ => Val::Unknown,
                    }),
                    (_, [a, b]) => {
                        let (a, b) = (self.rvalue(a)?, self.rvalue(b)?);
                        let bop = if o == "operator-" { op::SUB } else { op::ADD };
                        Ok(self.arith(bop, a, b))
                    }
                    _ => Ok(Val::Unknown),
                };
            }
            if let Some(at) = operator {
                let spelled = strip(ch[at]).referenced().map(|d| d.spelling());
                if spelled.as_deref().is_some_and(assigns) {
                    // `m += x[i]` on a `T m` while some `operator+=` is in
                    // scope: `m` changes, to a value drfscan does not know.
                    let target = if at == 0 { 1 } else { 0 };
                    for (k, c) in ch.iter().enumerate() {
                        if k != at && k != target {
                            self.rvalue(c)?;
                        }
                    }
                    if let Some(c) = ch.get(target) {
                        let lv = self.lvalue(c)?;
                        self.assign_unknown(&lv, spelled.as_deref() != Some("operator="), loc);
                    }
                    return Ok(Val::Unknown);
                }
            }
            // Between two integers (`index < n` with `index_t n` while cub
            // is included) no overload applies, only the built-in operator.
            if let (Some(1), [a, o, b]) = (operator, ch.as_slice()) {
                let spelled = strip(*o).referenced().map(|d| d.spelling());
                if let Some(code) = spelled.as_deref().and_then(builtin_operator) {
                    let (a, b) = (self.rvalue(a)?, self.rvalue(b)?);
                    if let (Val::Int(x), Val::Int(y)) = (&a, &b) {
                        return Ok(match relation(code) {
                            Some(rel) => Val::Int(of_cond(imp::simplify_cond(&Cond::cmp(
                                rel,
                                simplify(x),
                                simplify(y),
                            )))),
                            None => self.arith(code, a, b),
                        });
                    }
                    // A shared address in an integer (`__cvta_generic_to_shared`)
                    // moved by an offset drfscan may not know (`base + (row *
                    // 16 + swizzle<K>(row, col)) * 2`): still an address, of
                    // some cell of its array.
                    let address = |v: &Val| matches!(v, Val::Ptr(p) if p.address);
                    if relation(code).is_none() && (address(&a) || address(&b)) {
                        return Ok(self.arith(code, a, b));
                    }
                    return Ok(Val::Unknown);
                }
            }
            if let Some(at) = operator.filter(|&at| at > 0) {
                for (k, c) in ch.iter().enumerate() {
                    if k != at {
                        self.rvalue(c)?;
                    }
                }
                return Ok(Val::Unknown);
            }
            // A CUB collective on an object of a class the template leaves
            // open (`cub::BlockReduce<T, THREADS>(temp).Sum(x)`).
            if let Some(member) = ch.first().and_then(|c| dependent_member_name(c)) {
                if let Some(v) = self.cub_collective(n, &member)? {
                    return Ok(v);
                }
            }
            // A member call on an object whose class template the
            // template leaves open (`SharedMem<T> m; m.get()`): the class
            // template's one member function of that name.
            if let Some((m, open)) = ch.first().and_then(|c| dependent_method(c, ch.len() - 1)) {
                match self.project_method_of(n, &ch, m)? {
                    Some(Val::Ptr(p)) if open => return Ok(Val::Ptr(p.of_open_cells())),
                    Some(v) => return Ok(v),
                    None => {}
                }
            }
            if let Some(first) = ch.first() {
                let fs = strip(*first);
                if fs.kind() == K::DECL_REF || fs.kind() == K::MEMBER_REF {
                    if let Some(d) = fs.referenced() {
                        // A number is no callee: `U(n)` is a conversion to
                        // a type the template leaves open, which clang
                        // keeps as an unresolved construction of `n`.
                        let number = d.ty().is_integral() || d.ty().is_floating();
                        // Or a value of an open type (`float(x)` with `src_t
                        // x`): the written call starts with the type, not
                        // with the variable.
                        let converted = d.ty().is_dependent()
                            && n.tokens().first().is_some_and(|(t, _)| *t != d.spelling());
                        if (number || converted) && ch.len() == 1 {
                            return self.rvalue(&fs);
                        }
                        let variable = matches!(d.kind(), K::VAR | K::PARM | K::FIELD);
                        if variable && !number {
                            if let Some(v) = self.call_held(n, &fs, &args, loc)? {
                                return Ok(v);
                            }
                            return unsupported(n, "call through a function pointer");
                        }
                    }
                }
            }
            // A dependent call drfscan cannot resolve: like a declaration
            // without a body, it may write the memory its pointer arguments
            // reach, somewhere, and variables it may take by reference.
            for c in ch.iter().skip(1) {
                if let Val::Ptr(p) = self.rvalue(c)? {
                    if overloaded.is_some() {
                        self.access_somewhere(p, Mode::Write, loc);
                    }
                }
                if overloaded.is_some() && strip(*c).kind() == K::DECL_REF {
                    if let lv @ LVal::Var(_) = self.lvalue(c)? {
                        self.clobber(&lv, loc);
                    }
                }
            }
            return Ok(Val::Unknown);
        };
        self.call_resolved(n, &f, &args, loc)
    }

    /// A call through a variable that holds a function (a parameter a
    /// function was passed for, a pointer set to one): that function's
    /// call; `None` when drfscan does not know which function it holds.
    fn call_held(&mut self, n: &Node, callee: &Node, args: &[Node], loc: Loc) -> R<Option<Val>> {
        let held = strip(*callee)
            .referenced()
            .is_some_and(|d| matches!(d.kind(), K::VAR | K::PARM));
        if !held {
            return Ok(None);
        }
        let Val::Func { decl, values } = self.rvalue(callee)? else {
            return Ok(None);
        };
        let f = n.at(decl);
        if f.kind() == K::FUNCTION_TEMPLATE {
            if let Some(def) = f.definition().filter(children_has_body) {
                return self.inline_with(n, &def, args, values).map(Some);
            }
        }
        self.call_resolved(n, &f, args, loc).map(Some)
    }

    fn call_resolved(&mut self, n: &Node, f: &Node, args: &[Node], loc: Loc) -> R<Val> {
        let f = *f;
        let fk = f.kind();
        // A lambda the template's body defines, whose closure type clang
        // gives only in the instantiation.
        if let Some(lambda) = defined_lambda(&f, args.len()) {
            return self.inline(n, &lambda, &args);
        }
        if matches!(fk, K::VAR | K::PARM) {
            if let Some(first) = exprs(n).first() {
                if let Some(v) = self.call_held(n, first, &args, loc)? {
                    return Ok(v);
                }
            }
        }
        if (fk == K::VAR || fk == K::PARM || fk == K::FIELD) && f.ty().is_dependent() {
            // A function object of a template parameter's type: a call
            // drfscan does not see into, like one without a body. It may
            // write what its pointer arguments reach; one whose type may
            // hold memory (pointer fields, captures, a type the
            // instantiation does not give) may write anything.
            // A local object built from nothing (`Reader read;`) holds no
            // memory of the kernel's arguments.
            let from_nothing = fk == K::VAR
                && [K::DECL_REF, K::MEMBER_REF, K::LAMBDA]
                    .iter()
                    .all(|k| find_kind(f, *k).is_none());
            let holds = !from_nothing
                && match self.layouts.resolve(f.ty()) {
                    Some(t) => t.holds_pointers(),
                    None => self.open_functor_may_hold_pointers(&f, args.len()),
                };
            if holds {
                return unsupported(
                    n,
                    "a call of a function object whose type the template leaves open and which may hold pointers",
                );
            }
            for a in args {
                if let Val::Ptr(p) = self.rvalue(a)? {
                    self.access_somewhere(p, Mode::Write, loc);
                }
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
        // A conversion operator (`(float)h` over a `__half`) is a member
        // function of its operand, not inlined like the others.
        if fk == K::METHOD || fk == K::CONVERSION {
            return self.method_call(n, &name);
        }
        // The toolkit's own headers (system headers) get the prelude's
        // models too, rather than their implementations inlined.
        if from_toolkit(&f) {
            if let Some(v) = self.prelude_call(n, &name, &args)? {
                return Ok(v);
            }
        }
        if let Some(v) = self.cub_direct(&f, n, &name, &args)? {
            return Ok(v);
        }
        if let Some(v) = self.builtin_call(n, &name, &args, loc)? {
            return Ok(v);
        }
        if (name == "sync" || name == "synchronize") && args.len() == 1 {
            let ty = self.group_type(&args[0]);
            if let Some(v) = self.group_sync(&ty, loc) {
                return Ok(v);
            }
        }
        // `cg::wait(g)` and `cg::wait_prior<N>(g)`: the group's copies are
        // done and the group synchronized, as `g.sync()`.
        if (name == "wait" || name == "wait_prior") && args.len() == 1 {
            let ty = self.group_type(&args[0]);
            if let Some(v) = self.group_sync(&ty, loc) {
                return Ok(v);
            }
        }
        if name == "memcpy_async" && args.len() == 4 {
            if let Some(v) = self.group_copy(&args, loc)? {
                return Ok(v);
            }
        }
        if let Some(v) = self.async_copy(&f, &name, &args, loc)? {
            return Ok(v);
        }
        if f.has_attr(K::CUDA_GLOBAL) {
            return unsupported(n, "kernel launch from device code (dynamic parallelism)");
        }
        if group_kind(&n.ty().canonical().spelling()).is_some() {
            // `this_grid()`, `this_thread_block()`, …: a group is modelled by
            // its type; the toolkit's constructors read driver state.
            for a in args {
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
            for a in args {
                let v = self.rvalue(a)?;
                uniform &= self.grid_uniform(&v);
            }
            return Ok(if uniform { Val::Uniform } else { Val::Unknown });
        }
        let def = f.definition();
        match def {
            // The toolkit's intrinsics written in inline assembly (half
            // arithmetic, cache-hinted loads) are calls without a body.
            Some(d) if children_has_body(&d) && !(d.in_system_header() && has_asm(&d)) => {
                self.inline(n, &d, &args)
            }
            _ => {
                // A declaration only: its result is unknown; memory it may
                // write through pointer arguments is written somewhere,
                // unless the parameter points to const.
                let params = u32::try_from(f.num_args()).unwrap_or(0);
                for (i, a) in (0u32..).zip(args) {
                    let ty = strip(*a).ty();
                    let by_reference = (i < params)
                        .then(|| f.arg(i).ty())
                        .filter(|t| t.is_reference() && !t.pointee().is_const_qualified());
                    if ty.is_pointer() || ty.is_array() {
                        if let Some(p) = self.pointer(a)? {
                            let seen = if i < params { f.arg(i).ty() } else { ty };
                            let writes = !seen.canonical().pointee().is_const_qualified();
                            let mode = if writes { Mode::Write } else { Mode::Read };
                            self.access_somewhere(p, mode, loc);
                        }
                    } else if by_reference.is_some() {
                        // `f(v)` into a `T &` parameter: `v` may change.
                        match self.lvalue(a)? {
                            lv @ LVal::Var(_) => self.clobber(&lv, loc),
                            LVal::Mem(p) => self.access_somewhere(p, Mode::Write, loc),
                            LVal::Unknown => {}
                        }
                    } else {
                        self.rvalue(a)?;
                    }
                }
                Ok(Val::Unknown)
            }
        }
    }

    /// `surf2Dwrite(v, surf, x, y)`, `surf2Dread<T>(surf, x, y)`,
    /// `surf2Dread(&v, surf, x, y)` and their 1-D, 3-D, layered and
    /// cubemap kin: an access of the surface's memory, an array named
    /// after the surface object, indexed by layer (or face, or z), row and
    /// byte. `x` counts bytes, so an access covers the value's bytes: two
    /// threads writing `float`s 2 bytes apart overlap.
    fn surface_access(&mut self, n: &Node, name: &str, args: &[Node], loc: Loc) -> R<Option<Val>> {
        let write = name.ends_with("write");
        let coords = match name.trim_end_matches("write").trim_end_matches("read") {
            "surf1D" => 1,
            "surf2D" | "surf1DLayered" => 2,
            _ => 3,
        };
        // The value written, or the pointer a read stores through.
        let by_pointer = !write && args.first().is_some_and(|a| strip(*a).ty().is_pointer());
        let at = usize::from(write || by_pointer);
        if args.len() < at + 1 + coords {
            return Ok(None);
        }
        // The value's own type: a cast (`(uchar)x`) is what is written.
        let value_ty = if write {
            args[0].ty()
        } else if by_pointer {
            args[0].ty().canonical().pointee()
        } else {
            n.ty()
        };
        let surface = strip(args[at]);
        let decl = surface
            .referenced()
            .filter(|d| surface.kind() == K::DECL_REF && matches!(d.kind(), K::PARM | K::VAR));
        let Some(decl) = decl else {
            return unsupported(n, "an access of a surface drfscan cannot name");
        };
        let array = self.array_of(&decl, Scope::Global);
        let mut index = Vec::new();
        for a in &args[at + 1..at + 1 + coords] {
            index.push(self.int(a, "coordinate")?);
        }
        // Layer (face, z), row, byte.
        index.reverse();
        let bytes = self.layouts.size_of(value_ty).unwrap_or(1);
        let mut p = Ptr::of_cells(Target::Shared(array), index, 1);
        p.elem = bytes;
        if write {
            let v = self.rvalue(&args[0])?;
            self.write(&p, &v, loc);
            return Ok(Some(Val::Unknown));
        }
        let v = self.read(&p, loc);
        if by_pointer {
            if let Some(q) = self.pointer(&args[0])? {
                self.write(&q, &v, loc);
            }
            return Ok(Some(Val::Unknown));
        }
        Ok(Some(v))
    }

    /// `wmma::load_matrix_sync(frag, p, ldm[, layout])` and
    /// `store_matrix_sync(p, frag, ldm, layout)`: the warp reads or writes
    /// the fragment's tile at `p`, rows `ldm` elements apart (columns, for
    /// a column-major layout). Which lane holds which element is the
    /// hardware's; lanes share the tile out here row by row, each taking
    /// `cells / 32` adjacent elements, a partition as the hardware's is,
    /// so lanes of one warp never meet while every element is reached.
    /// `None` when the tile or the pointer is not known.
    fn matrix_sync(&mut self, store: bool, args: &[Node], loc: Loc) -> R<Option<Val>> {
        let (frag, ptr) = if store {
            (args.get(1), args.first())
        } else {
            (args.first(), args.get(1))
        };
        let (Some(frag), Some(ptr), Some(ldm)) = (frag, ptr, args.get(2)) else {
            return Ok(None);
        };
        let constants = &self.template_constants;
        let Some(tile) = fragment_of(frag, &|name| constants.get(name).copied()) else {
            return Ok(None);
        };
        let Some(p) = self.pointer(ptr)? else {
            return Ok(None);
        };
        let ldm = self.int(ldm, "ldm")?;
        // An accumulator's layout is an argument; the others' is the type's.
        let col_major = match args.get(3) {
            Some(layout) => match self.rvalue(layout)? {
                Val::Int(Expr::Int(v)) => v == 1,
                _ => return Ok(None),
            },
            None => tile.col_major,
        };
        let (rows, cols) = (tile.rows, tile.cols);
        let each = rows * cols / 32;
        if each == 0 || rows * cols % 32 != 0 || cols % each != 0 {
            return Ok(None);
        }
        let lanes_per_row = cols / each;
        let lane = lane();
        let row = Expr::bin(Op::Div, lane.clone(), Expr::Int(lanes_per_row));
        let var = self.name("tile_cell");
        let col = Expr::add(
            Expr::bin(
                Op::Mul,
                Expr::bin(Op::Mod, lane, Expr::Int(lanes_per_row)),
                Expr::Int(each),
            ),
            Expr::var(&var),
        );
        let (major, minor) = if col_major { (col, row) } else { (row, col) };
        let offset = Expr::add(Expr::bin(Op::Mul, major, ldm), minor);
        let mut q = p.clone();
        q.advance(Op::Add, offset);
        let mode = if store { Mode::Write } else { Mode::Read };
        // Which lane a race names is this dealing's, not the hardware's: a
        // race through a tile is real, its witness's lanes may not be.
        self.approximate("tensor-core tiles are dealt out to lanes by drfscan, not as the hardware does (opaque): a witness's lanes may differ");
        self.access_each(var, Expr::Int(each), None, &q, mode, loc);
        Ok(Some(Val::Unknown))
    }

    /// The asynchronous copies of libcu++ and the runtime: a thread's own,
    /// `cuda::memcpy_async(dst, src, bytes, pipe)` and
    /// `__pipeline_memcpy_async(dst, src, bytes)`, read the source's cells
    /// and write the destination's as `memcpy` does; a group's,
    /// `cuda::memcpy_async(g, dst, src, bytes, pipe)`, as
    /// `cg::memcpy_async`. The copy is taken to land where it is issued:
    /// code waits for it before the barrier that hands the cells to other
    /// threads, and a copy still in flight across a barrier is not
    /// modelled. `None` for other calls.
    fn async_copy(&mut self, f: &Node, name: &str, args: &[Node], loc: Loc) -> R<Option<Val>> {
        if !from_toolkit(f) {
            return Ok(None);
        }
        if name == "make_pipeline" {
            // A block-scoped pipeline's state is set up by the group's
            // first thread, then the group synchronizes; the state itself
            // is the library's, not the kernel's memory.
            for a in args {
                self.rvalue(a)?;
            }
            if let Some(g) = args.first().filter(|g| is_group(g)) {
                let ty = strip(*g).ty().canonical().spelling();
                if let Some(v) = self.group_sync(&ty, loc) {
                    return Ok(Some(v));
                }
            }
            return Ok(Some(Val::Unknown));
        }
        let (dst, src, bytes) = match (name, args) {
            ("__pipeline_memcpy_async", [dst, src, bytes, ..]) => (dst, src, bytes),
            ("memcpy_async", [dst, src, bytes, sync]) if !is_group(dst) => {
                self.rvalue(sync)?;
                (dst, src, bytes)
            }
            ("memcpy_async", [g, dst, src, bytes, sync]) if is_group(g) => {
                self.rvalue(sync)?;
                let group = [*g, *dst, *src, without_size_wrapper(*bytes)];
                return self.group_copy(&group, loc);
            }
            _ => return Ok(None),
        };
        let bytes = self.int(&without_size_wrapper(*bytes), "bytes")?;
        let Some(to) = self.pointer(dst)? else {
            return unsupported(dst, "asynchronous copy to a pointer of unknown origin");
        };
        if let Some(from) = self.pointer(src)? {
            self.cells(&from, &bytes, Mode::Read, loc);
        }
        self.cells(&to, &bytes, Mode::Write, loc);
        Ok(Some(Val::Unknown))
    }

    /// An access a call drfscan cannot see into may make through `p`: in
    /// shared memory (a thread's own arrays cannot race), at an unknown
    /// place.
    /// `memcpy`, `memmove` and `memset` (and their `__builtin_` forms):
    /// writes of the destination's cells the byte count covers, and reads
    /// of the source's. `None` for other calls.
    pub(super) fn byte_copy(&mut self, name: &str, args: &[Node], loc: Loc) -> R<Option<Val>> {
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

    /// The rank and size of the cooperative group a member call `n` is
    /// made on, of type `ty`, when they can be named: a tile's from the
    /// thread's index; a coalesced group's (which depend on the threads
    /// active where it is made) one local each per group object.
    fn group_of(&mut self, n: &Node, ty: &str) -> Option<GroupRange> {
        match group_kind(ty)? {
            "thread_block_tile" => {
                let g = GroupRange {
                    rank: simplify(&group_query(ty, "thread_rank")?),
                    size: group_query(ty, "size")?,
                };
                self.groups.insert(format!("tile {}", g.size), g.clone());
                Some(g)
            }
            "coalesced_group" => {
                let callee = strip(*exprs(n).first()?);
                let object = exprs(&callee).first().copied()?;
                let k = var_key(&object)?;
                let k = self.aliased(k);
                if let Some(g) = self.groups.get(&k) {
                    return Some(g.clone());
                }
                let g = GroupRange {
                    rank: self.local("rank"),
                    size: self.local("size"),
                };
                self.groups.insert(k, g.clone());
                Some(g)
            }
            _ => None,
        }
    }

    /// A group whose size `amount` is, when the thread lowered now is that
    /// group's leader (under `rank == 0`): an atomic adding it takes a
    /// range for the group.
    fn leading_group(&self, amount: &Expr) -> Option<GroupRange> {
        let amount = simplify(amount);
        self.groups
            .values()
            .find(|g| simplify(&g.size) == amount && self.path.iter().any(|c| self.leads(c, g)))
            .cloned()
    }

    /// Whether `c` holds for the leader of group `g` only: `rank == 0`,
    /// or, for a group a mask names, `lane == __ffs(mask) - 1`.
    fn leads(&self, c: &Cond, g: &GroupRange) -> bool {
        let zero = Expr::Int(0);
        let first = [
            Cond::cmp(Rel::Eq, g.rank.clone(), zero.clone()),
            Cond::cmp(Rel::Eq, zero, g.rank.clone()),
        ];
        if first.iter().any(|l| imp::simplify_cond(l) == *c) {
            return true;
        }
        let Cond::Cmp(Rel::Eq, a, b) = c else {
            return false;
        };
        let leader_lane = |e: &Expr| matches!(e, Expr::Var(l) if self.leaders.get(l) == Some(g));
        (leader_lane(a) && self.is_lane(b)) || (leader_lane(b) && self.is_lane(a))
    }

    /// Whether `e` is the thread's lane in its warp: the linear id modulo
    /// 32, or `threadIdx.x % 32` where the block is one row of threads.
    fn is_lane(&self, e: &Expr) -> bool {
        let e = simplify(e);
        if e == simplify(&lane()) {
            return true;
        }
        let row = Expr::bin(
            Op::Mod,
            Expr::var(builtin::TID[0]),
            Expr::Int(builtin::WARP_SIZE),
        );
        e == simplify(&row) && (1..3).all(|d| self.flat_axis(d))
    }

    /// A vote every active lane of a warp wins (`__activemask()`,
    /// `__ballot_sync(m, 1)`): the mask of a coalesced group, whose size
    /// and ranks its population counts give (`__popc(m)`, `__popc(m &
    /// lanemask_lt)`) and whose leader is its lowest lane (`__ffs(m) - 1`).
    fn active_mask(&mut self) -> Val {
        let mask = self.local("mask");
        let Expr::Var(k) = &mask else {
            return Val::Unknown;
        };
        let g = GroupRange {
            rank: self.local("rank"),
            size: self.local("size"),
        };
        self.groups.insert(format!("mask {k}"), g.clone());
        self.masks.insert(k.clone(), g);
        Val::Int(mask)
    }

    /// The group a mask `e` names (see [`Lower::active_mask`]).
    fn mask_group(&self, e: &Expr) -> Option<GroupRange> {
        match simplify(e) {
            Expr::Var(m) => self.masks.get(&m).cloned(),
            _ => None,
        }
    }

    /// `__popc(e)` of a group's mask: its size; of the mask's lanes below
    /// the thread's (`mask & ((1 << lane) - 1)`): the thread's rank.
    fn mask_count(&self, e: &Expr) -> Option<Expr> {
        if let Some(g) = self.mask_group(e) {
            return Some(g.size);
        }
        let lanes_below = |x: &Expr| matches!(x, Expr::Bin(Op::Shl, o, l) if **o == Expr::Int(1) && self.is_lane(l));
        // Also as simplified: `mask % (1 << lane)`.
        match simplify(e) {
            Expr::Bin(Op::Mod, m, below) if lanes_below(&below) => self.mask_group(&m),
            Expr::Bin(Op::BitAnd, a, b) => {
                let below = |x: &Expr| match simplify(x) {
                    Expr::Bin(Op::Sub, shifted, one) => {
                        *one == Expr::Int(1) && lanes_below(&shifted)
                    }
                    _ => false,
                };
                [(&a, &b), (&b, &a)]
                    .into_iter()
                    .find_map(|(m, lt)| self.mask_group(m).filter(|_| below(lt)))
            }
            _ => None,
        }
        .map(|g| g.rank)
    }

    /// The value a collective hands the members of each aligned group of
    /// `width` consecutive threads (by linear id) of a block: a cell of a
    /// fresh pseudo-array at the group's block and number and the
    /// iteration of every loop around, so that it is shared by the group
    /// at one execution of the call only.
    pub(super) fn collective(&mut self, width: Expr) -> Val {
        let id = self.collectives;
        self.collectives += 1;
        let mut index: Vec<Expr> = builtin::BID.iter().map(|b| Expr::var(b)).collect();
        index.push(Expr::bin(Op::Div, linear_tid(), width));
        index.extend(self.loop_vars.iter().map(|v| Expr::var(v)));
        Val::Collective(Value::Read {
            array: format!("{COLLECTIVE}{id}"),
            index,
        })
    }

    /// `g.shfl(v, 0)`: what the group's leader holds in `v`. When that is a
    /// range the leader took for the group, every thread of the group gets
    /// its start: a ticket over the group's ranks (see
    /// [`crate::protocol::Ticket::group`]).
    fn group_shfl(&mut self, n: &Node, g: GroupRange) -> R<Val> {
        let mut vals = Vec::new();
        for a in n.args() {
            vals.push(self.rvalue(&a)?);
        }
        let [Val::Int(v), Val::Int(Expr::Int(0))] = vals.as_slice() else {
            return Ok(Val::Unknown);
        };
        Ok(self.leader_range(v, g))
    }

    /// What the members of group `g` get of the leader's `v`: the start of
    /// a range the leader took for the group, as a ticket over the group's
    /// ranks; unknown for any other value.
    fn leader_range(&mut self, v: &Expr, g: GroupRange) -> Val {
        let Expr::Var(lead) = simplify(&at_leader(v, &|c| self.leads(c, &g))) else {
            return Val::Unknown;
        };
        let taken = self
            .group_leads
            .iter()
            .any(|(l, lg)| *l == lead && *lg == g);
        let ticket = self.tickets.iter().find(|(t, _, _)| t.local == lead);
        let (true, Some((t, array, cell))) = (taken, ticket) else {
            return Val::Unknown;
        };
        let (grid, array, cell) = (t.grid, array.clone(), cell.clone());
        let start = self.local("range");
        let Expr::Var(local) = &start else {
            return Val::Unknown;
        };
        let ticket = crate::protocol::Ticket {
            local: local.clone(),
            grid,
            block: false,
            phase: None,
            cell: None,
            counts_up: false,
            group: Some(g),
            counter: None,
        };
        self.tickets.push((ticket, array, cell));
        Val::Int(start)
    }

    /// Member functions are not inlined: assignment operators of
    /// structures write (and compound ones also read) their object; any
    /// other member call only evaluates its operands.
    pub(super) fn method_call(&mut self, n: &Node, name: &str) -> R<Val> {
        let ops = exprs(n);
        let loc = loc_of(n);
        if let Some(v) = self.cub_collective(n, name)? {
            return Ok(v);
        }
        if let Some(v) = self.atomic_method(n, name)? {
            return Ok(v);
        }
        let object = self.object_group_type(n);
        if name == "sync" {
            if let Some(v) = self.group_sync(&object, loc) {
                return Ok(v);
            }
        }
        // A block-scoped pipeline's stage passes from the block's producers
        // to its consumers at `consumer_wait`, and back at
        // `producer_acquire`: taken as the block's barrier, which orders
        // more than a pipeline of several stages does.
        let block_pipeline = object.contains("pipeline<") && object.contains("thread_scope_block");
        if block_pipeline && matches!(name, "producer_acquire" | "consumer_wait") {
            self.approximate(
                "a block-scoped cuda::pipeline's acquire and wait are taken as the block's barrier",
            );
            self.sync(loc);
            return Ok(Val::Unknown);
        }
        // Every thread of the block arrives and waits: the block's barrier
        // (a barrier expecting fewer threads is not told apart). Split in
        // two, `wait(bar.arrive())`, the barrier is at the wait; an access
        // between the two is unordered with both sides, which this does
        // not model, and says so.
        let block_barrier = object.contains("barrier<") && object.contains("thread_scope_block");
        if block_barrier && matches!(name, "arrive_and_wait" | "arrive" | "wait") {
            for a in ops.iter().skip(1) {
                self.rvalue(a)?;
            }
            if name == "arrive" {
                self.arrived_after = Some(self.accesses_made);
                return Ok(Val::Unknown);
            }
            if self
                .arrived_after
                .take()
                .is_some_and(|before| self.accesses_made > before)
            {
                self.approximate(
                    "accesses between a cuda::barrier's arrive and wait are taken to come before the wait",
                );
            }
            self.sync(loc);
            return Ok(Val::Unknown);
        }
        if let Some(g) = self.group_of(n, &object) {
            match name {
                "thread_rank" => return Ok(Val::Int(g.rank)),
                "size" | "num_threads" => return Ok(Val::Int(g.size)),
                "shfl" => return self.group_shfl(n, g),
                _ => {}
            }
        }
        if let Some(e) = group_query(&object, name) {
            return Ok(Val::Int(e));
        }
        if let (Some(o), Some(target)) = (assignment(name), ops.first()) {
            let lv = self.lvalue(target)?;
            // A structure copied whole into memory stores its fields'
            // values, or the cell it copies: equal stores are benign.
            // The source is the last operand; the operator's own name may
            // come between.
            let src = ops.last().filter(|_| o == "=" && ops.len() > 1);
            let (evaluated, fields) = match (src, &lv) {
                (Some(src), LVal::Mem(_)) => self.record_value(src)?,
                _ => (false, None),
            };
            let unevaluated = if evaluated { ops.len() - 1 } else { ops.len() };
            for a in &ops[1..unevaluated] {
                self.rvalue(a)?;
            }
            if let (Some(fields), LVal::Mem(p)) = (fields, &lv) {
                self.access_storing(p, Mode::Write, loc, Some(Value::Fields(fields)));
                return Ok(Val::Unknown);
            }
            if let (Some(src), LVal::Mem(p)) = (src, &lv) {
                if let Some(cell) = self.copied_cell_of(src) {
                    self.access_storing(p, Mode::Write, loc, Some(cell));
                    return Ok(Val::Unknown);
                }
            }
            self.assign_unknown(&lv, o != "=", loc);
            return Ok(Val::Unknown);
        }
        if let Some(v) = self.project_method(n, &ops)? {
            return Ok(v);
        }
        for a in ops {
            self.rvalue(&a)?;
        }
        Ok(Val::Unknown)
    }

    /// A member function of the project's own code, inlined on its object
    /// like any `__device__` function (the toolkit's are modelled instead):
    /// `acc.set(i, v)` writes what `set` writes through `acc`'s fields.
    /// `None` when the callee is not such a function.
    fn project_method(&mut self, n: &Node, ops: &[Node]) -> R<Option<Val>> {
        let Some(f) = n.referenced() else {
            return Ok(None);
        };
        self.project_method_of(n, ops, f)
    }

    fn project_method_of(&mut self, n: &Node, ops: &[Node], f: Node) -> R<Option<Val>> {
        // A conversion (`operator T *()`, called where the object is used
        // as a pointer) is a member function like the others.
        if !matches!(f.kind(), K::METHOD | K::CONVERSION) || from_toolkit(&f) {
            return Ok(None);
        }
        let Some(def) = f.definition().filter(children_has_body) else {
            return Ok(None);
        };
        if from_toolkit(&def) {
            return Ok(None);
        }
        let mut args: Vec<Node> = n.args();
        let params = def.params().len();
        // An operator call (`a + b`) passes its object as the first
        // argument; `a.f(b)` names it in its callee.
        let object = if args.len() == params + 1 {
            Some(strip(args.remove(0)))
        } else {
            ops.first()
                .map(|o| strip(*o))
                .filter(|c| c.kind() == K::MEMBER_REF)
                .and_then(|c| exprs(&c).first().map(|o| strip(*o)))
        };
        if !uses_this(&def) {
            if let Some(o) = object {
                self.rvalue(&o)?;
            }
            return self.inline(n, &def, &args).map(Some);
        }
        let this = match object {
            // A method called on the enclosing object (`set(i, v)` inside
            // another method): the same object.
            None => self.this.last().cloned(),
            Some(o) if o.kind() == K::THIS => self.this.last().cloned(),
            // `p->f()`: the element `p` points at.
            Some(o) if o.ty().is_pointer() => match self.pointer(&o)? {
                Some(mut p) => {
                    p.at_cell();
                    Some(ThisObject::in_memory(p))
                }
                None => None,
            },
            Some(o) => Some(self.this_object(&o)?),
        };
        let Some(this) = this else {
            return unsupported(
                n,
                format!(
                    "member function `{}` of an object of unknown origin",
                    f.spelling()
                ),
            );
        };
        self.this.push(this);
        let r = self.inline(n, &def, &args);
        self.this.pop();
        r.map(Some)
    }

    /// The object `o` names, for a member function inlined on it.
    fn this_object(&mut self, o: &Node) -> R<ThisObject> {
        let is_lvalue = matches!(o.kind(), K::DECL_REF | K::MEMBER_REF | K::ARRAY_SUBSCRIPT)
            || (o.kind() == K::UNARY && o.unop() == op::DEREF);
        if !is_lvalue {
            // A temporary: built by a constructor drfscan follows or
            // returned by a function (`View(p, s)[i]`, `row(m, i)[j]`), it
            // has the fields that gave it; else (`a * b + c` on values)
            // they are unknown.
            let var = match self.temporary_record(o)? {
                Some(var) => var,
                None => {
                    self.rvalue(o)?;
                    self.name("temporary")
                }
            };
            return Ok(ThisObject::variable(var.clone(), var, false));
        }
        Ok(match self.lvalue(o)? {
            LVal::Var(var) => {
                let base = exprs(o).first().map(|b| strip(*b));
                let (path, param) = match (o.kind(), base) {
                    (K::MEMBER_REF, Some(b)) if b.kind() != K::THIS => {
                        self.member_path(&b, &o.spelling())
                    }
                    (K::MEMBER_REF, _) => match self.this.last() {
                        Some(t) => (format!("{}.{}", t.path, o.spelling()), t.param),
                        None => (o.spelling(), false),
                    },
                    _ => match self.param_records.get(&var) {
                        Some(path) => (path.clone(), true),
                        None => {
                            let param = o.kind() == K::DECL_REF
                                && o.referenced().is_some_and(|d| d.kind() == K::PARM)
                                && self.stack.len() == 1;
                            (o.spelling(), param)
                        }
                    },
                };
                ThisObject::variable(var, path, param)
            }
            LVal::Mem(p) => ThisObject::in_memory(p),
            LVal::Unknown => {
                let var = self.name("object");
                ThisObject::variable(var.clone(), var, false)
            }
        })
    }

    /// An assignment of a value drfscan does not know to `lv`; a compound
    /// one (`+=`, `++`) reads it first.
    pub(super) fn assign_unknown(&mut self, lv: &LVal, compound: bool, loc: Loc) {
        if let (LVal::Mem(p), true) = (lv, compound) {
            self.read(p, loc);
        }
        self.clobber(lv, loc);
    }

    /// `lv` takes a value drfscan does not know: a variable (and its
    /// fields) becomes unknown, a cell is written.
    pub(super) fn clobber(&mut self, lv: &LVal, loc: Loc) {
        match lv {
            LVal::Var(k) => {
                // Fields known so far become unknown, not absent: a branch
                // merge takes a pointer field absent on one side for one
                // that side never assigned, and would keep the other's.
                let prefix = format!("{k}.");
                let known: Vec<String> = self
                    .env
                    .keys()
                    .filter(|f| f.starts_with(&prefix))
                    .cloned()
                    .collect();
                self.forget_fields(k);
                self.param_records.remove(k);
                self.env
                    .extend(known.into_iter().map(|f| (f, Val::Unknown)));
                // A number becomes a thread's own unknown; an object that
                // stands for a pointer keeps it (the fields went above).
                let v = match self.env.get(k) {
                    Some(Val::Int(_)) => Val::Int(self.local("v")),
                    Some(Val::Ptr(_)) => return,
                    _ => Val::Unknown,
                };
                self.env.insert(k.clone(), v);
            }
            LVal::Mem(p) => self.write(p, &Val::Unknown, loc),
            LVal::Unknown => {}
        }
    }

    /// Records `f` as a function the kernel calls: its compile errors are
    /// the kernel's.
    pub(super) fn note_callee(&mut self, f: &Node) {
        let (first, last) = f.lines();
        let extent = (f.pos().file, first, last);
        if !self.prog.callees.contains(&extent) {
            self.prog.callees.push(extent);
        }
    }

    /// Whether the object `f`, of a type the template leaves open, may hold
    /// memory when called with `arity` arguments. The instantiation that
    /// gives the type is in the translation unit, so the type is one of its
    /// function objects: a structure or class with a call operator of that
    /// many parameters, or a lambda. The program's own (outside the
    /// toolkit's headers) are looked at; if none may hold memory (pointer,
    /// reference or array fields, or a lambda's captures), neither does
    /// `f`.
    fn open_functor_may_hold_pointers(&mut self, f: &Node, arity: usize) -> bool {
        if let Some(&holds) = self.open_functors.get(&arity) {
            return holds;
        }
        let mut root = *f;
        while let Some(p) = root.semantic_parent() {
            root = p;
        }
        let holds = root.kind() != K::TRANSLATION_UNIT || functors_may_hold_pointers(&root, arity);
        self.open_functors.insert(arity, holds);
        holds
    }

    /// Each of `defined` inlined on a branch of its own, under an unknown
    /// value every thread shares naming the one the instantiation picks
    /// (`if (overload == 0) … else if (overload == 1) … else …`), joined
    /// as the branches of an `if` are (`Lower::merge`).
    fn each_overload(
        &mut self,
        call: &Node,
        defined: &[Node],
        args: &[Node],
        callee: &Node,
        loc: Loc,
    ) -> R<Val> {
        let pick = Expr::Var(self.unknown_param("overload"));
        let picks = |k: usize| Cond::cmp(Rel::Eq, pick.clone(), Expr::Int(k as i64));
        let (env0, facts0) = (self.env.clone(), self.facts.clone());
        let last = defined.len() - 1;
        let mut branches = Vec::new();
        for (k, f) in defined.iter().enumerate() {
            self.env = env0.clone();
            self.facts = facts0.clone();
            let mut path: Vec<Cond> = (0..k).map(|j| Cond::not(picks(j))).collect();
            if k < last {
                path.push(picks(k));
            }
            let depth = self.path.len();
            self.path.extend(path);
            let lowered = self.capture(|me| me.inline_specialized(call, f, args, callee));
            self.path.truncate(depth);
            let (v, s) = lowered?;
            let env = std::mem::take(&mut self.env);
            let facts = std::mem::take(&mut self.facts);
            branches.push((v, s, env, facts));
        }
        let (mut v, mut s, env, facts) = branches.pop().expect("several overloads");
        (self.env, self.facts) = (env, facts);
        for (k, (bv, bs, benv, bfacts)) in branches.into_iter().enumerate().rev() {
            let c = picks(k);
            self.merge(&c, benv, bfacts);
            v = super::stmt::join(&c, bv, v);
            s = Stmt::If {
                cond: c,
                then: Box::new(bs),
                els: Box::new(s),
                loc,
            };
        }
        self.emit(s);
        Ok(v)
    }

    /// `inline` of a function template named in a template pattern
    /// (`swizzle<K, 8>(i, j)` with `K` the kernel's): its value parameters
    /// take the arguments written after the name, or their defaults, for
    /// the call. Those left open stay one unknown value for every thread.
    fn inline_specialized(
        &mut self,
        call: &Node,
        f: &Node,
        args: &[Node],
        callee: &Node,
    ) -> R<Val> {
        let values = self.template_values(f, callee)?;
        self.inline_with(call, f, args, values)
    }

    /// The explicit specializations the unresolved name `callee` may call
    /// with `args`: of its bodiless templates, those whose value arguments
    /// are the ones the name writes, where it writes a number.
    fn specializations_named<'t>(
        &mut self,
        r: &Node<'t>,
        callee: &Node,
        args: &[Node],
    ) -> R<Vec<Node<'t>>> {
        let specs = explicit_specializations(r);
        if specs.is_empty() {
            return Ok(specs);
        }
        let mut out = Vec::new();
        for s in specs {
            let Some(t) = s.specialized_template() else {
                continue;
            };
            let params = t.template_params();
            let written = self.template_values(&t, callee)?;
            let given = s.template_args();
            let agrees = written.iter().all(|(k, v)| {
                let Some(i) = params.iter().position(|p| key(p) == *k) else {
                    return true;
                };
                match (v, given.get(i)) {
                    (Val::Int(Expr::Int(v)), Some(Ok(g))) => v == g,
                    _ => true,
                }
            });
            if agrees && takes(&s, args) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// `inline` with the template's value parameters bound to `values`
    /// for the call.
    fn inline_with(
        &mut self,
        call: &Node,
        f: &Node,
        args: &[Node],
        values: Vec<(String, Val)>,
    ) -> R<Val> {
        let mut saved = Vec::new();
        for (k, v) in values {
            saved.push((k.clone(), self.env.insert(k, v)));
        }
        let r = self.inline(call, f, args);
        self.restore_env(saved);
        r
    }

    /// The values of the function template `f`'s value parameters that a
    /// name of it (`callee`) writes after it, or their defaults, by the
    /// parameters' keys.
    pub(super) fn template_values(&mut self, f: &Node, callee: &Node) -> R<Vec<(String, Val)>> {
        // The name's children: a qualifier, the unresolved name, then the
        // written template arguments; a built-in type (`float`) has no
        // cursor, so they are taken by position only when one stands for
        // each argument the tokens show.
        let written: Vec<Node> = callee
            .children()
            .into_iter()
            .skip_while(|c| c.kind() != K::OVERLOADED_REF)
            .skip(1)
            .collect();
        let Some(count) = written_template_args(&callee.tokens()) else {
            return Ok(Vec::new());
        };
        let aligned = written.len() == count;
        let params = f.template_params();
        // Without a cursor per argument, the values still line up with the
        // value parameters when every other written argument is a type
        // (`load<float, N>`): expressions are exactly the values.
        let values: Vec<&Node> = written.iter().filter(|a| a.is_expression()).collect();
        let by_value = !aligned
            && values.len()
                == params
                    .iter()
                    .take(count)
                    .filter(|p| p.kind() == K::NON_TYPE_TEMPLATE_PARAM)
                    .count();
        let mut bound = Vec::new();
        let mut value_at = 0;
        for (i, p) in params.iter().enumerate() {
            if p.kind() != K::NON_TYPE_TEMPLATE_PARAM {
                continue;
            }
            let arg = if by_value && i < count {
                value_at += 1;
                values.get(value_at - 1).copied()
            } else {
                written.get(i)
            };
            let value = match arg {
                _ if i < count && !aligned && !by_value => None,
                Some(a) if a.is_expression() => match self.rvalue(a)? {
                    v @ Val::Int(_) => Some(v),
                    _ => None,
                },
                Some(_) => None,
                None if i < count => None,
                None => p
                    .children()
                    .into_iter()
                    .find(Node::is_expression)
                    .and_then(|d| d.eval_int())
                    .map(|v| Val::Int(Expr::Int(v))),
            };
            if let Some(v) = value {
                bound.push((key(p), v));
            }
        }
        Ok(bound)
    }

    /// The type arguments a call of the function template `f` deduces from
    /// arguments whose types the caller knows (`T` of `const T *d` from a
    /// `float *`, of `T (&a)[n]` from a `float[128]`), by position: the
    /// sizes of `T` in its body, which libclang leaves dependent when the
    /// call is in a template.
    fn deduced_type_args(&self, f: &Node, params: &[Node], args: &[Node]) -> Vec<Option<Ty>> {
        let count = f.template_params().len();
        let mut out = vec![None; count];
        let unref = |t: Ty| {
            if t.is_reference() {
                t.pointee().canonical()
            } else {
                t
            }
        };
        for (p, a) in params.iter().zip(args) {
            let (mut pt, mut at) = (unref(p.ty().canonical()), unref(a.ty().canonical()));
            loop {
                if let Some(j) = type_parameter(pt).filter(|j| *j < count) {
                    if out[j].is_none() {
                        out[j] = at
                            .size_of()
                            .map(|_| at)
                            .or_else(|| self.layouts.resolve(at));
                    }
                    break;
                }
                if pt.is_plain_pointer() && at.is_plain_pointer() {
                    (pt, at) = (pt.pointee().canonical(), at.pointee().canonical());
                } else if (pt.is_plain_pointer() || pt.is_array()) && at.is_array() {
                    let inner = if pt.is_array() {
                        pt.element()
                    } else {
                        pt.pointee()
                    };
                    (pt, at) = (inner.canonical(), at.element().canonical());
                } else {
                    break;
                }
            }
        }
        out
    }

    pub(super) fn inline(&mut self, call: &Node, f: &Node, args: &[Node]) -> R<Val> {
        self.note_callee(f);
        let fkey = key(f);
        if self.stack.contains(&fkey) {
            if !memory_free(f) {
                return unsupported(call, format!("recursive call to `{}`", f.spelling()));
            }
            // Its arguments are still evaluated here, reads and all.
            for a in args {
                self.rvalue(a)?;
            }
            return Ok(Val::Unknown);
        }
        if self.stack.len() > 64 {
            return unsupported(call, "calls nested too deeply");
        }
        let params: Vec<Node> = f.params();
        let mut bound = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let pk = key(p);
            let default = default_argument(args.get(i), p);
            let Some(a) = default.as_ref().or(args.get(i)) else {
                continue;
            };
            self.bind_group(&pk, &p.ty().canonical().spelling(), Some(a));
            if p.ty().is_record() && !p.ty().is_reference() {
                // A structure passed by value: a copy of the argument's.
                self.aliases.remove(&pk);
                let v = match record_source(*a).filter(|s| s.ty().is_record()) {
                    Some(src) => {
                        let from = self.record_variable(&src)?;
                        self.copy_record(&pk, from.as_deref());
                        Val::Unknown
                    }
                    // `f(View(p, s))`, `f(make(p))`: the temporary's fields.
                    None => match self.temporary_record(a)? {
                        Some(t) => {
                            self.copy_record(&pk, Some(&t));
                            Val::Unknown
                        }
                        None => {
                            self.copy_record(&pk, None);
                            self.rvalue(a)?
                        }
                    },
                };
                self.env.insert(pk.clone(), v);
            } else if p.ty().is_reference() {
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
        // A template's own type parameters are numbered from 0 as the
        // kernel's are: in a callee template they are not the kernel's.
        let own_params = f.kind() == K::FUNCTION_TEMPLATE
            || f.semantic_parent()
                .is_some_and(|p| matches!(p.kind(), K::CLASS_TEMPLATE | K::CLASS_TEMPLATE_PARTIAL));
        let layouts = if own_params {
            let deduced = if f.kind() == K::FUNCTION_TEMPLATE {
                self.deduced_type_args(f, &params, args)
            } else {
                Vec::new()
            };
            Some(std::mem::replace(&mut self.layouts, Layouts::new(deduced)))
        } else if f.kind() == K::FUNCTION && f.specialized_template().is_some() {
            let args = f.template_arg_types();
            Some(std::mem::replace(&mut self.layouts, Layouts::new(args)))
        } else {
            None
        };
        let site = (loc_of(call), call.id());
        let wants_place = self.lvalue_call == Some(site) && f.result_type().is_reference();
        if wants_place {
            self.lvalue_call = None;
        }
        self.stack.push(fkey);
        self.returns.push(Vec::new());
        self.record_returns.push(Vec::new());
        self.place_returns.push(wants_place.then(Vec::new));
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
        // One `return` of a structure variable: its fields at the end are
        // what it returns (with several, a later path's assignments could
        // stand for an earlier return's).
        let records = self.record_returns.pop().unwrap_or_default();
        if let Some(places) = self.place_returns.pop().flatten() {
            self.returned_place = Some((site, joined_place(places)));
        }
        self.returned_record = match records.as_slice() {
            [Some(only)] => Some((loc_of(call), only.clone())),
            _ => None,
        };
        self.stack.pop();
        if let Some(kernel) = layouts {
            self.layouts = kernel;
        }
        self.site = saved_site;
        r?;
        // The result: the value of the return reached, by path.
        let mut result: Option<Val> = None;
        for (c, v) in rets.into_iter().rev() {
            result = Some(match result {
                None => v,
                Some(rest) => self.join_shared(&c, v, rest, &f.spelling()),
            });
        }
        Ok(result.unwrap_or(Val::Unknown))
    }
}

/// The place a function returning a reference refers to, from the places
/// its `return`s give by path: one variable, or the cells the paths'
/// pointers select; unknown otherwise.
fn joined_place(places: Vec<(Cond, LVal)>) -> LVal {
    let mut out: Option<LVal> = None;
    for (c, lv) in places.into_iter().rev() {
        out = Some(match (out, lv) {
            (None, lv) => lv,
            (Some(LVal::Var(a)), LVal::Var(b)) if a == b => LVal::Var(a),
            (Some(LVal::Mem(rest)), LVal::Mem(p)) => match Ptr::either(&c, p, rest) {
                Some(p) => LVal::Mem(p),
                None => return LVal::Unknown,
            },
            _ => return LVal::Unknown,
        });
    }
    out.unwrap_or(LVal::Unknown)
}

/// How many template arguments a name's tokens write (`f<K, 8>`: 2, `f`:
/// 0); `None` when the brackets do not close.
fn written_template_args(tokens: &[(String, u32)]) -> Option<usize> {
    match tokens.iter().position(|(t, _)| t == "<") {
        None => Some(0),
        Some(open) => crate::cuda::launch::template_arg_list(&tokens[open..]).map(|a| a.len()),
    }
}

/// The tile a `wmma::fragment` covers: its rows and columns (`M x K` of
/// a `matrix_a`, `K x N` of a `matrix_b`, `M x N` of an accumulator) and
/// whether its type says column-major.
struct Tile {
    rows: i64,
    cols: i64,
    col_major: bool,
}

/// Whether `n` is a `wmma::fragment`.
fn is_fragment(n: &Node) -> bool {
    strip(*n).ty().canonical().spelling().contains("fragment<")
}

/// The tile of the fragment `n` is, from its type's template arguments
/// (`fragment<matrix_a, 16, 16, 16, half, row_major>`, or in a kernel
/// template `fragment<matrix_a, WM, WN, WK, …>` with `constant` giving the
/// instance's values); `None` for other types, sizes left open, and
/// sub-byte elements, which no pointer addresses one by one.
fn fragment_of(n: &Node, constant: &dyn Fn(&str) -> Option<i64>) -> Option<Tile> {
    let ty = strip(*n).ty().canonical().spelling();
    let inner = ty.split_once("fragment<")?.1.strip_suffix('>')?;
    let args: Vec<&str> = crate::cuda::launch::split_outside(inner, &[('<', '>')])
        .into_iter()
        .map(str::trim)
        .collect();
    let [usage, m, n, k, element, rest @ ..] = args.as_slice() else {
        return None;
    };
    if ["u4", "s4", "b1"].iter().any(|b| element.ends_with(b)) {
        return None;
    }
    let size = |s: &str| s.parse().ok().or_else(|| constant(s));
    let (m, n, k) = (size(m)?, size(n)?, size(k)?);
    let (rows, cols) = match usage.rsplit("::").next()? {
        "matrix_a" => (m, k),
        "matrix_b" => (k, n),
        "accumulator" => (m, n),
        _ => return None,
    };
    let col_major = rest.first().is_some_and(|l| l.ends_with("col_major"));
    Some(Tile {
        rows,
        cols,
        col_major,
    })
}

/// More definitions than this for one dependent call are not each
/// inlined: the call stays unresolved.
const MAX_OVERLOADS: usize = 4;

/// The operator of an assignment operator function: `=` of `operator=`,
/// `+=` of `operator+=`; `None` for comparisons and every other function.
fn assignment(name: &str) -> Option<&str> {
    name.strip_prefix("operator")
        .filter(|o| o.ends_with('=') && !matches!(*o, "==" | "!=" | "<=" | ">="))
}

/// The built-in binary operator an operator function's name spells
/// (`operator<`: `<`), for arithmetic, shifts, bitwise operators and
/// comparisons.
fn builtin_operator(name: &str) -> Option<i32> {
    Some(match name.strip_prefix("operator")? {
        "+" => op::ADD,
        "-" => op::SUB,
        "*" => op::MUL,
        "/" => op::DIV,
        "%" => op::REM,
        "<<" => op::SHL,
        ">>" => op::SHR,
        "&" => op::AND,
        "|" => op::OR,
        "^" => op::XOR,
        "<" => op::LT,
        "<=" => op::LE,
        ">" => op::GT,
        ">=" => op::GE,
        "==" => op::EQ,
        "!=" => op::NE,
        _ => return None,
    })
}

/// Whether an operator function assigns its first operand (`operator=`,
/// `operator+=`, `operator++`, …).
pub(super) fn assigns(name: &str) -> bool {
    assignment(name).is_some() || matches!(name, "operator++" | "operator--")
}

/// An operator call a template leaves unresolved: the operator's name and
/// its operands in order.
pub(in crate::cuda) fn unresolved_operator<'a>(n: &Node<'a>) -> Option<(String, Vec<Node<'a>>)> {
    if n.kind() != K::CALL || n.referenced().is_some() {
        return None;
    }
    let ch = exprs(n);
    let is_operator = |c: &Node| {
        strip(*c)
            .referenced()
            .filter(|d| d.kind() == K::OVERLOADED_REF && d.spelling().starts_with("operator"))
            .map(|d| d.spelling())
    };
    let at = ch.iter().position(|c| is_operator(c).is_some())?;
    let o = is_operator(&ch[at])?;
    let operands = ch
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != at)
        .map(|(_, c)| *c)
        .collect();
    Some((o, operands))
}

/// Whether an operand in a template is an integer: of an integer type,
/// a property such as `threadIdx.x` (`__declspec(property)`, of type
/// `unsigned int` once read), an element of an array of integers whose
/// size the template leaves open (`int slot[K]`), or arithmetic on such
/// operands, built in or by an unresolved operator (`slot[k] * n`).
fn integer_valued(c: &Node) -> bool {
    let s = strip(*c);
    let property = s.kind() == K::MEMBER_REF && s.ty().spelling() == "<pseudo-object type>";
    if c.ty().is_integral() || s.ty().is_integral() || property {
        return true;
    }
    if s.kind() == K::ARRAY_SUBSCRIPT {
        let base = exprs(&s).first().map(|b| strip(*b).ty());
        return base.is_some_and(|t| t.is_array() && t.element().is_integral());
    }
    let (o, ops) = if s.kind() == K::BINARY {
        (Some(s.binop()), exprs(&s))
    } else {
        match unresolved_operator(&s) {
            Some((name, ops)) => (builtin_operator(&name), ops),
            None => return false,
        }
    };
    let arithmetic = [
        op::ADD,
        op::SUB,
        op::MUL,
        op::DIV,
        op::REM,
        op::SHL,
        op::SHR,
    ];
    o.is_some_and(|o| arithmetic.contains(&o)) && ops.len() == 2 && ops.iter().all(integer_valued)
}

/// An operator a template leaves unresolved only because some overload is
/// in scope (`X + i`, `*p` over a `const T *X` where cub or
/// `helper_math.h` define operators) that can only be the built-in one,
/// since no overload takes a pointer and an integer, or a pointer alone:
/// its spelling (`operator+`, `operator-`, `operator*`, `operator&`, and
/// the steps `+=`, `-=`, `++`, `--`) and operands.
pub(super) fn pointer_operator<'a>(n: &Node<'a>) -> Option<(String, Vec<Node<'a>>)> {
    let (o, ops) = unresolved_operator(n)?;
    // `X + i + j` nests one unresolved operator in another.
    let pointer = |c: &Node| {
        let s = strip(*c);
        [c.ty(), s.ty()]
            .iter()
            .any(|t| t.is_pointer() || t.is_array())
            || pointer_operator(&s).is_some_and(|(o, _)| o != "operator*")
    };
    let int = integer_valued;
    let builtin = match (o.as_str(), ops.as_slice()) {
        ("operator+", [a, b]) => (pointer(a) && int(b)) || (int(a) && pointer(b)),
        ("operator-" | "operator+=" | "operator-=", [a, b]) => pointer(a) && int(b),
        ("operator++" | "operator--", [a, ..]) => pointer(a),
        ("operator*", [a]) => pointer(a),
        // `&x[i]` over a `T *x`: no one overloads `&` on an element.
        ("operator&", [a]) => strip(*a).kind() == K::ARRAY_SUBSCRIPT,
        _ => false,
    };
    builtin.then_some((o, ops))
}

/// Combinations of two values that do not depend on their order.
fn commutative_combination<'a>(n: &Node<'a>) -> Option<(Node<'a>, Node<'a>)> {
    let n = strip(*n);
    let ch = exprs(&n);
    let k = n.kind();
    if k == K::BINARY && matches!(n.binop(), op::ADD | op::MUL | op::AND | op::OR | op::XOR) {
        return Some((ch[0], ch[1]));
    }
    if k == K::CALL && n.num_args() == 2 {
        let name = n.referenced()?.spelling();
        let name = name.trim_start_matches("operator");
        let pure = [
            "+",
            "*",
            "&",
            "|",
            "^",
            "fmaxf",
            "fminf",
            "fmax",
            "fmin",
            "max",
            "min",
            "__hadd",
            "__hmul",
            "__hmax",
            "__hmin",
            "__hadd2",
            "__hmul2",
            "__hmax2",
            "__hmin2",
            "__fadd_rn",
            "__fmul_rn",
            "__dadd_rn",
            "__dmul_rn",
        ];
        if pure.contains(&name) {
            return Some((n.arg(0), n.arg(1)));
        }
    }
    None
}

/// The value an xor shuffle exchanges, its lane offset and its width
/// argument, if any: `__shfl_xor_sync(mask, v, o)`, `__shfl_xor(v, o)`,
/// `tile.shfl_xor(v, o)`.
fn xor_shuffle<'a>(n: &Node<'a>) -> Option<(Node<'a>, Node<'a>, Option<Node<'a>>)> {
    let n = strip(*n);
    if n.kind() != K::CALL {
        return None;
    }
    let name = n.referenced()?.spelling();
    let at = match name.as_str() {
        "__shfl_xor_sync" => 1,
        "__shfl_xor" | "shfl_xor" => 0,
        _ => return None,
    };
    let args: Vec<Node> = n.args();
    Some((
        *args.get(at)?,
        *args.get(at + 1)?,
        args.get(at + 2).copied(),
    ))
}

/// The one statement of a loop body that combines a variable with an xor
/// shuffle of itself: `v op= shfl(v, o)` or `v = combine(v, shfl(v, o))`.
/// The variable's key, the shuffle's offset and its width argument.
fn shuffle_step<'a>(mut body: Node<'a>) -> Option<(String, Node<'a>, Option<Node<'a>>)> {
    while body.kind() == K::COMPOUND {
        let [only] = body.children()[..] else {
            return None;
        };
        body = only;
    }
    let body = strip(body);
    let ch = exprs(&body);
    if ch.len() != 2 && body.kind() != K::CALL {
        return None;
    }
    let (target, shuffled) = if body.kind() == K::COMPOUND_ASSIGN
        && matches!(
            super::stmt::compound_base(body.binop()),
            op::ADD | op::MUL | op::AND | op::OR | op::XOR
        ) {
        (var_key(&ch[0])?, ch[1])
    } else if body.kind() == K::BINARY && body.binop() == op::ASSIGN {
        let v = var_key(&ch[0])?;
        let (a, b) = commutative_combination(&ch[1])?;
        if var_key(&a).as_deref() == Some(v.as_str()) {
            (v, b)
        } else if var_key(&b).as_deref() == Some(v.as_str()) {
            (v, a)
        } else {
            return None;
        }
    } else if body.kind() == K::CALL
        && matches!(
            body.referenced()?.spelling().as_str(),
            "operator+=" | "operator*=" | "operator&=" | "operator|=" | "operator^="
        )
        && body.num_args() == 2
    {
        (var_key(&body.arg(0))?, body.arg(1))
    } else {
        return None;
    };
    let (value, offset, width) = xor_shuffle(&shuffled)?;
    (var_key(&value).as_deref() == Some(target.as_str())).then_some((target, offset, width))
}

impl Lower {
    /// A constant, also one spelled in a template's parameters.
    fn constant_of(&mut self, n: &Node) -> Option<i64> {
        if let Some(v) = n.eval_int() {
            return Some(v);
        }
        // Evaluated for its value only: nothing that reads or writes.
        if has_effects(n) {
            return None;
        }
        match self.rvalue(n).ok()? {
            Val::Int(e) => match simplify(&e) {
                Expr::Int(v) => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    /// A loop of xor shuffles that leaves its variable one value for each
    /// aligned group of `width` lanes: `for (o = 16; o > 0; o /= 2) v +=
    /// __shfl_xor_sync(m, v, o)`, offsets 1, 2, …, width / 2 in any order
    /// and a combination that does not depend on the order of its operands
    /// (each step then hands both partners one value). The variable's key
    /// and the width.
    pub(super) fn xor_butterfly(&mut self, s: &Node) -> Option<(String, i64)> {
        let (init, cond, inc, body) = Self::for_parts(s);
        let (init, cond, inc, body) = (init?, strip(cond?), strip(inc?), body?);
        // The shape first, which costs nothing: every loop is asked.
        let (target, offset, shuffle_width) = shuffle_step(body)?;
        let (counter, start) = super::stmt::for_counter(init)?;
        let is_counter = |n: &Node| var_key(n).as_deref() == Some(counter.as_str());
        if !is_counter(&offset) || target == counter {
            return None;
        }
        // The test: the counter against a constant.
        let [tested, limit] = exprs(&cond)[..] else {
            return None;
        };
        if cond.kind() != K::BINARY || !is_counter(&tested) {
            return None;
        }
        // The step: halving or doubling the counter.
        let [stepped, change] = exprs(&inc)[..] else {
            return None;
        };
        if !is_counter(&stepped) {
            return None;
        }
        let (step_op, by) = match inc.kind() {
            k if k == K::COMPOUND_ASSIGN => (super::stmt::compound_base(inc.binop()), change),
            k if k == K::BINARY && inc.binop() == op::ASSIGN => {
                let rhs = strip(change);
                let [old, by] = exprs(&rhs)[..] else {
                    return None;
                };
                if rhs.kind() != K::BINARY || !is_counter(&old) {
                    return None;
                }
                (rhs.binop(), by)
            }
            _ => return None,
        };
        let (start, rel, bound) = (
            self.constant_of(&start)?,
            cond.binop(),
            self.constant_of(&limit)?,
        );
        let by = self.constant_of(&by)?;
        let holds = |o: i64| match rel {
            op::GT => o > bound,
            op::GE => o >= bound,
            op::LT => o < bound,
            op::LE => o <= bound,
            op::NE => o != bound,
            _ => false,
        };
        let step = |o: i64| match (step_op, by) {
            (op::DIV, 2) | (op::SHR, 1) => Some(o / 2),
            (op::MUL, 2) | (op::SHL, 1) => o.checked_mul(2),
            _ => None,
        };
        let mut offsets = Vec::new();
        let mut o = start;
        while holds(o) {
            if offsets.len() > 6 {
                return None;
            }
            offsets.push(o);
            o = step(o)?;
        }
        offsets.sort_unstable();
        let width = 2 * *offsets.last()?;
        if offsets != (0..offsets.len()).map(|k| 1i64 << k).collect::<Vec<_>>()
            || width > builtin::WARP_SIZE
        {
            return None;
        }
        if let Some(w) = shuffle_width.filter(|w| !w.tokens().is_empty()) {
            if self.constant_of(&w)? < width {
                return None;
            }
        }
        Some((target, width))
    }
}

/// The lambda a local variable is initialised with, when it takes `arity`
/// arguments.
fn defined_lambda<'t>(var: &Node<'t>, arity: usize) -> Option<Node<'t>> {
    if var.kind() != K::VAR {
        return None;
    }
    let init = strip(*var.children().last()?);
    let lambda = if init.kind() == K::LAMBDA {
        init
    } else {
        // Bound to a reference: the temporary holds the lambda.
        let inner = init.children();
        match inner.as_slice() {
            [only] if strip(*only).kind() == K::LAMBDA => strip(*only),
            _ => return None,
        }
    };
    (lambda.params().len() == arity).then_some(lambda)
}

#[cfg(test)]
mod tests {
    #[test]
    fn template_arguments_written_after_a_name_are_counted() {
        let count = |text: &str| {
            let tokens: Vec<(String, u32)> = text.split(' ').map(|t| (t.to_string(), 0)).collect();
            super::written_template_args(&tokens)
        };
        assert_eq!(count("f"), Some(0));
        assert_eq!(count("f < K , 8 >"), Some(2));
        assert_eq!(count("ns :: f < g < 1 , 2 > , ( a , b ) >"), Some(2));
        assert_eq!(count("f < g < 1 , 2 >>"), Some(1));
        assert_eq!(count("f < K , 8"), None);
    }
}

/// Whether a function object under `n`, outside the toolkit's headers,
/// with a call operator of `arity` parameters may hold memory (see
/// `Lower::open_functor_may_hold_pointers`).
fn functors_may_hold_pointers(n: &Node, arity: usize) -> bool {
    for c in n.children() {
        if from_toolkit(&c) {
            continue;
        }
        let k = c.kind();
        if matches!(
            k,
            K::STRUCT | K::CLASS | K::CLASS_TEMPLATE | K::CLASS_TEMPLATE_PARTIAL
        ) {
            let calls = c.children().iter().any(|m| {
                matches!(m.kind(), K::METHOD | K::FUNCTION_TEMPLATE)
                    && m.spelling() == "operator()"
                    && m.params().len() == arity
            });
            let holds = if k == K::STRUCT || k == K::CLASS {
                c.ty().holds_pointers()
            } else {
                c.children()
                    .iter()
                    .any(|m| m.kind() == K::FIELD && m.ty().holds_pointers())
            };
            if calls && holds {
                return true;
            }
        }
        if k == K::LAMBDA && c.params().len() == arity {
            // Anything between the brackets captures: `[=]` may copy a
            // pointer, `[&]` refers to the enclosing variables.
            let toks = c.tokens();
            let empty = matches!(toks.as_slice(), [(open, _), (close, _), ..] if open == "[" && close == "]");
            if !empty {
                return true;
            }
        }
        if functors_may_hold_pointers(&c, arity) {
            return true;
        }
    }
    false
}
