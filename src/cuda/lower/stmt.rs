//! Statements: declarations, branches and their merge, loops (counted,
//! unrolled or generic, with `break`, `continue`, early `return` and forward
//! `goto` as jump conditions) and `switch`.

use super::*;
use std::collections::BTreeMap;

/// The arrays `s` writes or updates atomically.
pub(super) fn written_arrays(s: &Stmt, out: &mut HashSet<String>) {
    s.each_access(&mut |a| {
        if let Stmt::Access { array, mode, .. } = a {
            if *mode != Mode::Read {
                out.insert(array.clone());
            }
        }
    });
}

/// The variables `s` mentions.
pub(super) fn mentioned_vars(s: &Stmt, out: &mut BTreeSet<String>) {
    match s {
        Stmt::Access { index, lock, .. } => {
            index.iter().for_each(|e| e.free_vars(out));
            lock.iter()
                .flat_map(|l| &l.index)
                .for_each(|e| e.free_vars(out));
        }
        Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
        Stmt::Seq(v) => v.iter().for_each(|s| mentioned_vars(s, out)),
        Stmt::If {
            cond, then, els, ..
        } => {
            cond.free_vars(out);
            mentioned_vars(then, out);
            mentioned_vars(els, out);
        }
        Stmt::For { lo, hi, body, .. } => {
            lo.free_vars(out);
            hi.free_vars(out);
            mentioned_vars(body, out);
        }
    }
}

/// Collectives' cells (`Lower::collective`) at thread and block 0 of size
/// 1 along `axes`, (id, size) pairs nothing else names.
pub(super) fn flatten_collectives(s: &mut Stmt, axes: &[(&str, &str)]) {
    match s {
        Stmt::Access { value: Some(v), .. } if is_collective(v) => {
            for (id, size) in axes {
                *v = v.subst(id, &Expr::Int(0)).subst(size, &Expr::Int(1));
            }
            if let Value::Read { index, .. } = v {
                index.iter_mut().for_each(|e| *e = simplify(e));
            }
        }
        Stmt::Access { .. } | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
        Stmt::Seq(v) => v.iter_mut().for_each(|s| flatten_collectives(s, axes)),
        Stmt::If { then, els, .. } => {
            flatten_collectives(then, axes);
            flatten_collectives(els, axes);
        }
        Stmt::For { body, .. } => flatten_collectives(body, axes),
    }
}

fn is_collective(v: &Value) -> bool {
    matches!(v, Value::Read { array, .. } if array.starts_with(COLLECTIVE))
}

/// Drops the stored values that copy a cell of an array the kernel writes:
/// the cell may hold different values when two threads read it.
pub(super) fn forget_written_cells(s: &mut Stmt, written: &HashSet<String>) {
    match s {
        Stmt::Access { value, .. } => {
            if matches!(value, Some(Value::Read { array, .. }) if written.contains(array)) {
                *value = None;
            }
        }
        Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
        Stmt::Seq(v) => v.iter_mut().for_each(|s| forget_written_cells(s, written)),
        Stmt::If { then, els, .. } => {
            forget_written_cells(then, written);
            forget_written_cells(els, written);
        }
        Stmt::For { body, .. } => forget_written_cells(body, written),
    }
}

/// The label a `goto` names.
pub(super) fn goto_label(s: &Node) -> Option<String> {
    s.children()
        .into_iter()
        .map(|c| c.spelling())
        .find(|l| !l.is_empty())
}

/// The key of the hidden iterator a range-based `for`'s loop variable `var`
/// is initialised from (`*__begin1`).
fn hidden_iterator(var: &Node) -> Option<String> {
    let iterator = find_kind(*var, K::DECL_REF)?.referenced()?;
    Some(key(&iterator))
}

/// What `n` assigns (`=`, `+=`, `++`, …): its first operand, or the
/// operand of an operator a template leaves unresolved (`p += k` on a `T *p`
/// while some `operator+=` is in scope).
fn assignment_target<'a>(n: &Node<'a>) -> Option<Node<'a>> {
    let k = n.kind();
    let assigns = (k == K::BINARY && n.binop() == op::ASSIGN)
        || k == K::COMPOUND_ASSIGN
        || (k == K::UNARY
            && matches!(
                n.unop(),
                op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC
            ));
    if assigns {
        return exprs(n).first().copied();
    }
    let (o, operands) = super::call::unresolved_operator(n)?;
    super::call::assigns(&o).then(|| operands.first().copied())?
}

/// The constructor and arguments of a declaration whose class template the
/// enclosing template leaves open (`Buf<T> b(p, n)`, which clang keeps as a
/// list of arguments): the template's one defined constructor that takes
/// that many.
fn open_constructor<'t>(d: &Node<'t>, init: &Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>)> {
    if !d.ty().is_dependent() {
        return None;
    }
    let list = strip(*init);
    if list.kind() != K::UNEXPOSED {
        return None;
    }
    // Written `b(p, n)`: the name, then the parenthesised arguments.
    let name = d.spelling();
    let tokens = d.tokens();
    let direct = tokens.windows(2).any(|w| w[0].0 == name && w[1].0 == "(");
    if !direct {
        return None;
    }
    let args = exprs(&list);
    let class = d.type_declaration()?;
    let ctors: Vec<Node> = class
        .children()
        .into_iter()
        .filter(|c| c.kind() == K::CONSTRUCTOR && c.params().len() == args.len())
        .filter_map(|c| c.definition())
        .collect();
    match ctors.as_slice() {
        [one] if !args.is_empty() => Some((*one, args)),
        _ => None,
    }
}

/// The fields of its object a member function's body assigns by name
/// (`n++`, `pos.x = 0` changes `pos`); `None` when it may change others:
/// it calls a member function, hands a field to a function or takes its
/// address, or writes `this` (`this->n = 0` too).
fn fields_assigned(method: &Node) -> Option<Vec<String>> {
    // The object's own field `t` names, through nested fields (`pos` of
    // `pos.x`), when it is reached from the object itself.
    fn own_field(t: Node) -> Option<String> {
        let mut t = strip(t);
        let mut top = None;
        while t.kind() == K::MEMBER_REF {
            top = Some(super::memory::member_name(&t));
            match exprs(&t).first() {
                Some(b) => t = strip(*b),
                None => return top,
            }
        }
        if t.kind() == K::THIS {
            top
        } else {
            None
        }
    }
    fn walk(n: &Node, out: &mut Vec<String>) -> bool {
        if let Some(f) = assignment_target(n).and_then(own_field) {
            out.push(f);
        }
        let address_of_member = n.kind() == K::UNARY
            && n.unop() == op::ADDR_OF
            && exprs(n).first().is_some_and(|t| own_field(*t).is_some());
        let calls_member = n.kind() == K::CALL
            && n.referenced()
                .is_none_or(|f| matches!(f.kind(), K::METHOD | K::CONVERSION));
        // A field handed to a function, which may take it by reference.
        let hands_out_field =
            n.kind() == K::CALL && n.args().iter().any(|a| own_field(*a).is_some());
        if address_of_member || calls_member || hands_out_field || n.kind() == K::THIS {
            return false;
        }
        n.children().iter().all(|c| walk(c, out))
    }
    let body = method
        .children()
        .into_iter()
        .find(|c| c.kind() == K::COMPOUND)?;
    let mut out = Vec::new();
    walk(&body, &mut out).then_some(out)
}

/// The object whose field `t` names, through nested fields (`s` of
/// `s.a.b`), or `t` itself.
fn member_base(t: Node) -> Node {
    let mut t = strip(t);
    while t.kind() == K::MEMBER_REF {
        match exprs(&t).first() {
            Some(b) => t = strip(*b),
            None => break,
        }
    }
    t
}

/// The fields `a.b` that `s.a.b` names within a variable `s`, when it is
/// reached through `.` alone; `None` for `s` itself or a path through a
/// pointer.
fn field_path(t: Node) -> Option<String> {
    let mut t = strip(t);
    let mut fields = Vec::new();
    while t.kind() == K::MEMBER_REF {
        let base = strip(*exprs(&t).first()?);
        if base.ty().is_pointer() {
            return None;
        }
        fields.push(super::memory::member_name(&t));
        t = base;
    }
    if t.kind() != K::DECL_REF || fields.is_empty() {
        return None;
    }
    fields.reverse();
    Some(fields.join("."))
}

/// The element of memory a structure is initialised from, through the
/// copies around it (`ranges[i]` of `uint2 r = ranges[i]`, `*p`, `p->s`):
/// `None` for any other initializer.
fn copied_cell(init: Node) -> Option<Node> {
    // `const uint2` and `uint2` are one type for a copy.
    let record = |n: &Node| plain_type(&n.ty().canonical().spelling());
    let mut n = strip(init);
    let ty = record(&n);
    while n.kind() == K::CALL && n.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR) {
        let [arg] = exprs(&n)[..] else {
            return None;
        };
        let arg = strip(arg);
        if record(&arg) != ty {
            return None;
        }
        n = arg;
    }
    let memory = match n.kind() {
        k if k == K::ARRAY_SUBSCRIPT => true,
        k if k == K::UNARY => n.unop() == op::DEREF,
        k if k == K::MEMBER_REF => exprs(&n)
            .first()
            .is_some_and(|b| strip(*b).ty().is_pointer() || strip(*b).kind() == K::ARRAY_SUBSCRIPT),
        _ => false,
    };
    (memory && n.is_plain_record()).then_some(n)
}

/// Pushes onto `out` the keys `key.f`, `key.s.g` of the integer and
/// floating fields of the structure `record`'s type, in order and through
/// nested structures; false, with none pushed, when one is of another kind
/// (an array, a pointer, a union).
pub(super) fn scalar_fields(record: &Node, key: &str, out: &mut Vec<String>, depth: u32) -> bool {
    fields_in_order(record, key, out, depth, false)
}

/// [`scalar_fields`], pointers included: the fields a braced list sets
/// one by one.
fn value_fields(record: &Node, key: &str, out: &mut Vec<String>) -> bool {
    fields_in_order(record, key, out, 0, true)
}

fn fields_in_order(
    record: &Node,
    key: &str,
    out: &mut Vec<String>,
    depth: u32,
    pointers: bool,
) -> bool {
    let fields = record.record_fields();
    if fields.is_empty() || depth > 4 {
        return false;
    }
    let start = out.len();
    for f in fields {
        let k = format!("{key}.{}", f.spelling());
        let ty = f.ty();
        let scalar = if ty.is_record() {
            f.is_plain_record() && fields_in_order(&f, &k, out, depth + 1, pointers)
        } else if ty.is_integral() || ty.is_floating() || (pointers && ty.is_pointer()) {
            out.push(k);
            true
        } else {
            false
        };
        if !scalar {
            out.truncate(start);
            return false;
        }
    }
    true
}

/// The braced list a structure value is made from, through the casts and
/// copies around it (`View{p, s}`, `return {p, s};`).
pub(super) fn braced_list(n: Node) -> Option<Node> {
    let mut n = strip(n);
    loop {
        match n.kind() {
            K::INIT_LIST => return Some(n),
            K::FUNCTIONAL_CAST | K::UNEXPOSED => match exprs(&n)[..] {
                [one] => n = strip(one),
                _ => return None,
            },
            K::CALL if n.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR) => {
                match exprs(&n)[..] {
                    [one] if strip(one).ty().is_record() => n = strip(one),
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// The pointer variable a store through memory goes through (`p` of `*p`,
/// `p[i]`, `p->f`, `(*p).f`).
fn pointer_base<'a>(t: Node<'a>) -> Option<Node<'a>> {
    let mut t = strip(t);
    let mut through = false;
    loop {
        let k = t.kind();
        if k == K::MEMBER_REF || k == K::ARRAY_SUBSCRIPT || (k == K::UNARY && t.unop() == op::DEREF)
        {
            through |= k != K::MEMBER_REF || t.tokens().iter().any(|(s, _)| s == "->");
            t = strip(*exprs(&t).first()?);
        } else {
            break;
        }
    }
    (through && t.kind() == K::DECL_REF)
        .then(|| t.referenced())
        .flatten()
}

/// Nodes past which a jump condition is replaced by an unknown.
const MAX_JUMP_NODES: usize = 256;

/// Whether `c` has more than [`MAX_JUMP_NODES`] nodes, expressions
/// included.
fn cond_too_big(c: &Cond) -> bool {
    fn expr(e: &Expr, left: &mut usize) -> bool {
        if *left == 0 {
            return true;
        }
        *left -= 1;
        match e {
            Expr::Int(_) | Expr::Var(_) => false,
            Expr::Bin(_, a, b) => expr(a, left) || expr(b, left),
            Expr::Ite(c, a, b) => cond(c, left) || expr(a, left) || expr(b, left),
        }
    }
    fn cond(c: &Cond, left: &mut usize) -> bool {
        if *left == 0 {
            return true;
        }
        *left -= 1;
        match c {
            Cond::Bool(_) => false,
            Cond::Cmp(_, a, b) => expr(a, left) || expr(b, left),
            Cond::And(a, b) | Cond::Or(a, b) => cond(a, left) || cond(b, left),
            Cond::Not(a) => cond(a, left),
            Cond::Forall { lo, hi, body, .. } => {
                expr(lo, left) || expr(hi, left) || cond(body, left)
            }
        }
    }
    let mut left = MAX_JUMP_NODES;
    cond(c, &mut left)
}

/// Conditions under which control left a statement early.
#[derive(Clone)]
pub(super) struct Jumps {
    pub(super) ret: Cond,
    pub(super) brk: Cond,
    pub(super) cont: Cond,
    /// Forward `goto`s not yet at their label: label and condition.
    pub(super) gotos: Vec<(String, Cond)>,
}

impl Jumps {
    pub(super) fn none() -> Jumps {
        Jumps {
            ret: Cond::Bool(false),
            brk: Cond::Bool(false),
            cont: Cond::Bool(false),
            gotos: Vec::new(),
        }
    }
    pub(super) fn any(&self) -> Cond {
        Cond::or(
            Cond::or(self.leaving(), self.brk.clone()),
            self.cont.clone(),
        )
    }
    /// What leaves every enclosing loop: a return, or a `goto` to a label
    /// after it.
    pub(super) fn leaving(&self) -> Cond {
        self.gotos
            .iter()
            .fold(self.ret.clone(), |acc, (_, c)| Cond::or(acc, c.clone()))
    }
    pub(super) fn or(self, o: Jumps) -> Jumps {
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
    pub(super) fn under(self, c: &Cond) -> Jumps {
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
    pub(super) fn arrive(&mut self, label: &str) {
        self.gotos.retain(|(l, _)| l != label);
    }
}

pub(super) struct Shape<'a> {
    pub(super) var: String,
    pub(super) lo: Expr,
    pub(super) rel: Rel,
    pub(super) bound: Expr,
    pub(super) step: Step,
    pub(super) rest: Option<Node<'a>>,
    /// A pointer that moves one element per iteration with the counter,
    /// from where it is at the loop's entry: a range-based `for`'s hidden
    /// iterator.
    pub(super) cursor: Option<(String, Ptr)>,
}

pub(super) enum Step {
    Add(Expr),
    Sub(Expr),
    Mul(Expr),
    Div(Expr),
}

/// The most copies of a body that nested unrolled loops make.
const MAX_UNROLLED_COPIES: u64 = 16;

/// The values of a loop whose start, bound and step are constants, when
/// there are few: at most 64 for multiplicative steps (a handful of powers),
/// at most 8 for additive ones.
pub(super) fn constant_values(shape: &Shape) -> Option<Vec<i64>> {
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
    let holds = |v: i64| shape.rel.holds(v, *bound);
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

/// For a loop counting up by one (`v++` while `v < n`, `v <= n`, `v !=
/// n`), the value it stays below.
fn bound_by_one(shape: &Shape) -> Option<Expr> {
    if !matches!(shape.step, Step::Add(Expr::Int(1))) {
        return None;
    }
    match shape.rel {
        Rel::Lt | Rel::Ne => Some(shape.bound.clone()),
        Rel::Le => Some(Expr::add(shape.bound.clone(), Expr::Int(1))),
        _ => None,
    }
}

/// Whether `brk` is `v == last` (either way round): a `break` at the
/// loop's last iteration only.
fn breaks_at(brk: &Cond, v: &str, last: &Expr) -> bool {
    let Cond::Cmp(Rel::Eq, a, b) = brk else {
        return false;
    };
    let (a, b) = (simplify(a), simplify(b));
    let v = Expr::var(v);
    (a == v && b == *last) || (b == v && a == *last)
}

/// For `for (v = lo; …; v++)` whose body breaks out under `brk`: the
/// condition that no iteration before `v` broke out, when it has a closed
/// form.
pub(super) fn no_earlier_break(brk: &Cond, v: &str, lo: &Expr) -> Option<Cond> {
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
        let flipped = rel.flip();
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

/// `+=` → `+`, and so on.
pub(crate) fn compound_base(o: i32) -> i32 {
    match o {
        23..=29 => o - 20,
        30 => op::AND,
        31 => op::XOR,
        32 => op::OR,
        o => o,
    }
}

/// The key of a variable or of a field of one reached through `.` alone
/// (`s.a.b`: `s`'s key, then `.a.b`), as `Lower::field` keys it.
/// How [`Lower::cycled_once`] moves a variable each iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cycle {
    /// `v ^= c`: its start and `start ^ c` in turn.
    Flip(i64),
    /// `v = c - v`: its start and `c - start` in turn.
    Reflect(i64),
    /// `v = (v + 1) % m`, from a start in `0..m`.
    Round(i64),
}

fn slot_key(n: &Node) -> Option<String> {
    let n = strip(*n);
    if n.kind() != K::MEMBER_REF {
        return var_key(&n);
    }
    let fields = field_path(n)?;
    Some(format!("{}.{fields}", var_key(&member_base(n))?))
}

pub(super) fn var_key(n: &Node) -> Option<String> {
    let n = strip(*n);
    if n.kind() != K::DECL_REF {
        return None;
    }
    let d = n.referenced()?;
    (d.kind() == K::VAR || d.kind() == K::PARM).then(|| key(&d))
}

/// The operands of a comma expression, left to right (`a += 1, b += 2`).
fn comma_parts<'a>(n: &Node<'a>) -> Vec<Node<'a>> {
    let n = strip(*n);
    if n.kind() == K::BINARY && n.binop() == op::COMMA {
        exprs(&n).iter().flat_map(comma_parts).collect()
    } else {
        vec![n]
    }
}

/// Whether `n` holds a `continue` of the loop around it (not of a loop
/// inside it).
fn has_continue(n: &Node) -> bool {
    let k = n.kind();
    if k == K::CONTINUE {
        return true;
    }
    if k == K::FOR || k == K::WHILE || k == K::DO {
        return false;
    }
    n.children().iter().any(has_continue)
}

/// The counter a `for` loop's `init` sets and the node of its start:
/// `int i = e` or `i = e`.
pub(super) fn for_counter<'a>(init: Node<'a>) -> Option<(String, Node<'a>)> {
    if init.kind() == K::DECL_STMT {
        let d = init.children().into_iter().find(|d| d.kind() == K::VAR)?;
        let value = d.children().into_iter().rev().find(|c| c.is_expression())?;
        return Some((key(&d), value));
    }
    let i = strip(init);
    let [target, value] = exprs(&i)[..] else {
        return None;
    };
    if i.kind() != K::BINARY || i.binop() != op::ASSIGN {
        return None;
    }
    Some((var_key(&target)?, value))
}

/// Whether `n` holds a `break`, `return` or `goto` (of any loop or switch
/// inside it too: a loop that holds one may end before its bound).
fn leaves_early(n: &Node) -> bool {
    matches!(n.kind(), K::BREAK | K::RETURN | K::GOTO) || n.children().iter().any(leaves_early)
}

/// Whether `n` names a variable that lives in memory other threads may
/// change: a `__shared__` one, or one outside every function that is not
/// `const` (the built-in `threadIdx` and the like are).
fn reads_memory(n: &Node) -> bool {
    let here = n.kind() == K::DECL_REF
        && n.referenced().is_some_and(|d| {
            let global = !d.semantic_parent().is_some_and(|p| {
                matches!(p.kind(), K::FUNCTION | K::FUNCTION_TEMPLATE | K::METHOD)
            });
            d.kind() == K::VAR && (d.is_shared() || (global && !d.ty().is_const_qualified()))
        });
    here || n.children().iter().any(reads_memory)
}

pub(super) fn mentions(n: &Node, vars: &HashSet<String>) -> bool {
    if n.kind() == K::DECL_REF {
        if let Some(d) = n.referenced() {
            // A structure is mentioned with any of its fields (`s.x`).
            let k = key(&d);
            let field_of = |v: &String| {
                v.strip_prefix(k.as_str())
                    .is_some_and(|r| r.starts_with('.'))
            };
            if vars.contains(&k) || vars.iter().any(field_of) {
                return true;
            }
        }
    }
    n.children().iter().any(|c| mentions(c, vars))
}

impl Lower {
    pub(super) fn block(&mut self, stmts: &[Node]) -> R<Jumps> {
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
    pub(super) fn after_jumps(&mut self, stmts: &[Node], pending: Jumps, loc: Loc) -> R<Jumps> {
        let landing = stmts.iter().position(|t| {
            t.kind() == K::LABEL && pending.gotos.iter().any(|(l, _)| *l == t.spelling())
        });
        let upto = landing.unwrap_or(stmts.len());
        let stay = Cond::not(pending.any());
        self.path.push(stay.clone());
        let r = self.capture(|me| me.block(&stmts[..upto]));
        self.path.pop();
        let (skipped, buf) = r?;
        let out = self.exit_barrier(&pending, &buf, loc);
        self.emit_if(stay.clone(), buf, out, loc);
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

    /// What a thread that returned inside a loop does instead of `rest`: a
    /// barrier where it returned, when `rest` has one. A protocol loop runs
    /// an unknown count of iterations whatever happened in the last, so
    /// without it a return would lead on into the next iteration's
    /// accesses with no barrier between (`while (1) { if (tid == 0) n = 0;
    /// __syncthreads(); …; __syncthreads(); if (n == 0) return;
    /// __syncthreads(); }` would read `n` in the same interval as the next
    /// write of it). The barrier adds no order a run has: the barrier in
    /// `rest` already needs the block to agree on returning, and a block
    /// that returns together runs nothing after it.
    ///
    /// A `break` out of a loop of unknown trip count is the same: every
    /// count is possible, so the trip a block breaks out at is the loop's
    /// last, and a thread that breaks at an earlier one takes a barrier
    /// there (`while (1) { if (tid == 0) b = atomicAdd(&next, 1);
    /// __syncthreads(); if (b >= n) break; …; __syncthreads(); }` reads `b`
    /// in an interval of its own). After the last trip the thread goes on
    /// past the loop, so none is added there; the barriers in `rest` need
    /// the block to agree on breaking, and so does this one.
    fn exit_barrier(&mut self, pending: &Jumps, rest: &Stmt, loc: Loc) -> Stmt {
        if self.loop_vars.is_empty() || !rest.has_sync() {
            return Stmt::skip();
        }
        // Only when returning is the one way out: `rest` is skipped exactly
        // when it is taken, so the barrier needs no condition of its own,
        // which the intervals' syntax would not see as the negation of the
        // other branch's.
        let only_returns = pending.ret != Cond::Bool(false) && pending.any() == pending.ret;
        if only_returns {
            return Stmt::Sync(self.place(loc));
        }
        let no_other_jump = pending.cont == Cond::Bool(false) && pending.gotos.is_empty();
        if !no_other_jump || pending.brk == Cond::Bool(false) {
            return Stmt::skip();
        }
        match self.break_targets.last() {
            Some(BreakTarget::Uncounted(not_last)) => {
                let not_last = not_last.clone();
                let place = self.place(loc);
                Stmt::If {
                    cond: not_last,
                    then: Box::new(Stmt::Sync(place)),
                    els: Box::new(Stmt::skip()),
                    loc,
                }
            }
            // A counted loop's last trip is not the one a block breaks at:
            // lowered again as one of unknown trip count, its test a
            // condition of each trip.
            // One that breaks at its last trip only (`if (i == n - 1)
            // break;`) is exact as it is: no trip follows.
            Some(BreakTarget::Counted(at, v, last)) => {
                if !last.as_ref().is_some_and(|l| breaks_at(&pending.brk, v, l)) {
                    self.wants_uncounted.insert(*at);
                }
                Stmt::skip()
            }
            _ => Stmt::skip(),
        }
    }

    pub(super) fn stmt(&mut self, s: &Node) -> R<Jumps> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(s, "code nested too deeply")
        } else {
            self.stmt_at(s)
        };
        self.depth -= 1;
        r.map(|j| self.bounded(j))
    }

    /// `j` with each condition past [`MAX_JUMP_NODES`] an unknown of its
    /// own: the conditions of `break`s and `continue`s in long `switch`es
    /// inside unrolled loops grow with every case, and copying them costs
    /// more than the analysis. An unknown says control may or may not have
    /// left there, which covers what it stands for.
    fn bounded(&mut self, mut j: Jumps) -> Jumps {
        let bound = |me: &mut Self, c: &mut Cond| {
            if cond_too_big(c) {
                let jumped = me.local("jumped");
                *c = Cond::cmp(Rel::Ne, jumped, Expr::Int(0));
            }
        };
        bound(self, &mut j.ret);
        bound(self, &mut j.brk);
        bound(self, &mut j.cont);
        for (_, c) in &mut j.gotos {
            bound(self, c);
        }
        j
    }

    /// A loop or a `switch`: what a `break` in it leaves.
    fn breakable(&mut self, s: &Node, k: std::os::raw::c_int) -> R<Jumps> {
        match k {
            _ if k == K::FOR => self.pointers_across_iterations(s, |me| me.for_stmt(s)),
            _ if k == K::WHILE || k == K::DO => {
                self.pointers_across_iterations(s, |me| me.while_stmt(s, k == K::DO))
            }
            _ if k == K::FOR_RANGE => self.pointers_across_iterations(s, |me| me.range_for(s)),
            _ => self.switch_stmt(s),
        }
    }

    pub(super) fn stmt_at(&mut self, s: &Node) -> R<Jumps> {
        let k = s.kind();
        if k == K::COMPOUND {
            return self.block(&s.children());
        }
        if k == K::VAR {
            self.decl(s)?;
            return Ok(Jumps::none());
        }
        if k == K::DECL_STMT {
            for d in s.children() {
                if d.kind() == K::VAR {
                    self.decl(&d)?;
                } else if d.kind() == K::STATIC_ASSERT {
                    self.static_assert(&d);
                }
            }
            return Ok(Jumps::none());
        }
        if s.is_expression() {
            self.rvalue(s)?;
            return Ok(Jumps::none());
        }
        // A `break` leaves the innermost of these; a loop of unknown trip
        // count says so of its own (`generic_loop`).
        if [K::FOR, K::WHILE, K::DO, K::FOR_RANGE, K::SWITCH].contains(&k) {
            self.break_targets.push(BreakTarget::Other);
            let r = self.breakable(s, k);
            self.break_targets.pop();
            return r;
        }
        match k {
            _ if k == K::IF => self.if_stmt(s),
            _ if k == K::RETURN => {
                let e = exprs(s);
                if let Some(e) = e.first() {
                    // A reference returned to a caller that assigns
                    // through it: the place, not its value.
                    if let Some(Some(_)) = self.place_returns.last() {
                        let lv = self.lvalue(e)?;
                        let path = Cond::all(self.path.iter().cloned());
                        if let Some(Some(places)) = self.place_returns.last_mut() {
                            places.push((path.clone(), lv));
                        }
                        if let Some(r) = self.returns.last_mut() {
                            r.push((path, Val::Unknown));
                        }
                        return Ok(Jumps {
                            ret: Cond::Bool(true),
                            ..Jumps::none()
                        });
                    }
                    let mut built = false;
                    if e.ty().is_record() {
                        let held = match record_source(*e) {
                            Some(src) => self.record_variable(&src)?,
                            // `return View(p, s);`: the temporary's fields.
                            None => {
                                let t = self.temporary_record(e)?;
                                built = t.is_some();
                                t
                            }
                        };
                        if let Some(r) = self.record_returns.last_mut() {
                            r.push(held);
                        }
                    }
                    let v = if built { Val::Unknown } else { self.rvalue(e)? };
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
            _ if k == K::CONTINUE => {
                let state = self.env.clone();
                if let Some(points) = self.continues.last_mut() {
                    points.push(state);
                }
                Ok(Jumps {
                    cont: Cond::Bool(true),
                    ..Jumps::none()
                })
            }
            _ if k == K::NULL_STMT => Ok(Jumps::none()),
            _ if k == K::LABEL => self.block(&s.children()),
            _ if k == K::ASM => self.inline_asm(s),
            _ if k == K::MS_ASM => unsupported(s, "inline assembly"),
            _ if k == K::GOTO => match goto_label(s) {
                Some(label) => Ok(Jumps {
                    gotos: vec![(label, Cond::Bool(true))],
                    ..Jumps::none()
                }),
                None => unsupported(s, "goto"),
            },
            _ if k == K::TRY => unsupported(s, "unsupported statement"),
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

    /// A `static_assert` holds wherever the kernel compiles: in a template
    /// left open it says which arguments the kernel is ever built with
    /// (`static_assert(kTile == 16)`), so it is a precondition. One drfscan
    /// cannot read (`std::is_same_v<T, float>`) says nothing. Under a
    /// condition (`if constexpr`) it holds where that does; inside a loop
    /// it is left alone, as the loop's variables are not the kernel's.
    fn static_assert(&mut self, d: &Node) {
        let Some(e) = exprs(d).into_iter().next() else {
            return;
        };
        if !self.loop_vars.is_empty() {
            return;
        }
        let Ok(c) = self.cond(&e) else {
            return;
        };
        if c == Cond::Bool(true) {
            return;
        }
        let c = if self.path.is_empty() {
            c
        } else {
            Cond::or(Cond::not(Cond::all(self.path.iter().cloned())), c)
        };
        // An unrolled loop meets the same assert on every trip.
        if !self.prog.assumes.contains(&c) {
            self.require(c);
        }
    }

    pub(super) fn decl(&mut self, d: &Node) -> R<()> {
        let ty = d.ty();
        let k = key(d);
        if d.is_shared() {
            let name = self.array_of(d, Scope::Shared);
            let index = if ty.is_array() {
                vec![]
            } else {
                vec![Expr::Int(0)]
            };
            let p = self.array_cells(name, index, self.cell_size(ty));
            self.env.insert(k, Val::Ptr(p));
            return Ok(());
        }
        let name = d.spelling();
        self.spellings.insert(k.clone(), name.clone());
        let init = exprs(d).into_iter().last();
        // `MinK<T, int> top(keys, vals, k);` in a template: the class
        // template's one constructor of that many parameters.
        if let Some((ctor, args)) = init.as_ref().and_then(|i| open_constructor(d, i)) {
            self.forget_fields(&k);
            self.param_records.remove(&k);
            if self.construct_with(&k, &ctor, &args)? {
                self.env.insert(k, Val::Unknown);
                return Ok(());
            }
        }
        if ty.is_record() {
            // A structure declared again (in a loop body) starts anew, and
            // so does a group made again.
            self.forget_fields(&k);
            self.param_records.remove(&k);
            self.groups.remove(&k);
            self.bind_group(&k, &ty.canonical().spelling(), init.as_ref());
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
                    if matches!(dims, Some(d) if d == builtin::TID || d == builtin::BLOCK_DIM) {
                        self.named_axes.set(0b110);
                    }
                    match dims {
                        Some(names) if sd.pos().file.starts_with(crate::cuda::prelude::DIR) => {
                            for (f, n) in ["x", "y", "z"].iter().zip(names) {
                                self.env.insert(format!("{k}.{f}"), Val::Int(Expr::var(n)));
                            }
                        }
                        _ => {
                            let from = self.record_variable(&src)?;
                            self.copy_record(&k, from.as_deref());
                        }
                    }
                }
                self.env.insert(k, Val::Unknown);
                return Ok(());
            }
            // `uint2 range = ranges[blockIdx.x];`: one read of the element;
            // its fields are what the element's fields read alone would be.
            if let Some(cell) = init.and_then(copied_cell) {
                if let LVal::Mem(p) = self.lvalue(&cell)? {
                    let v = self.read(&p, loc_of(&cell));
                    if matches!(v, Val::Uniform | Val::Stored(..)) {
                        let mut fields = Vec::new();
                        scalar_fields(&cell, &k, &mut fields, 0);
                        for f in fields {
                            let e = self.materialize(v.clone(), &format!("{name}.field"));
                            self.env.insert(f, Val::Int(e));
                        }
                    }
                    self.env.insert(k, Val::Unknown);
                    return Ok(());
                }
            }
            // `uint2 pix = { x0 + threadIdx.x, y0 + threadIdx.y };`: the
            // fields in order; those the list leaves out are zero.
            if let Some(list) = init.map(strip).filter(|n| n.kind() == K::INIT_LIST) {
                self.init_fields(&k, &list)?;
                self.env.insert(k, Val::Unknown);
                return Ok(());
            }
            // `cuda::atomic_ref<int> r(a[i]);`: `r` stands for the cell.
            if let (Some(super::call::AtomicKind::Ref), Some(init)) =
                (super::call::atomic_kind(&ty.canonical().spelling()), &init)
            {
                let v = match self.referenced_cell(init)? {
                    Some(p) => Val::Ptr(p),
                    None => Val::Unknown,
                };
                self.env.insert(k, v);
                return Ok(());
            }
            if let Some(init) = &init {
                if self.construct(&k, init)? {
                    self.env.insert(k, Val::Unknown);
                    return Ok(());
                }
            }
            // `Matrix s = sub(a, i, j);`: the fields of the structure the
            // function returned.
            if let Some((from, v)) = match init {
                Some(init) => self.returned_record(&init)?,
                None => None,
            } {
                self.copy_record(&k, from.as_deref());
                self.env.insert(k, v);
                return Ok(());
            }
        }
        if ty.is_array() {
            let priv_name = self.name(&format!("{name}@private"));
            self.env.insert(
                k,
                Val::Ptr(Ptr::new(Target::Private(priv_name.clone()), vec![])),
            );
            // Constants (`= {0}`, `= {}`) fill every thread's copy alike.
            // (The last child of `int a[K]` is its size: only a written
            // initializer counts; a declaration a macro makes, whose
            // tokens are not there to read, may have one.)
            let tokens = d.tokens();
            let written = tokens.is_empty() || tokens.iter().any(|(t, _)| t == "=" || t == "{");
            let filled = written && !init.is_some_and(|i| self.constant_initializer(&i));
            self.alike.declare(&priv_name, filled);
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
        let unknown = |me: &mut Self| {
            let v = me.local(&name);
            if ty.is_unsigned() {
                me.assume_never_negative(&v);
            }
            Val::Int(v)
        };
        let v = match init {
            Some(init) => {
                let v = self.rvalue(&init)?;
                match v {
                    Val::Unknown if ty.is_integral() => unknown(self),
                    Val::Unknown if ty.is_pointer() => self.pointer_conversion(&init)?,
                    // One parameter (or local) for the variable, not one
                    // per use.
                    v @ (Val::Uniform | Val::Stored(..)) => {
                        let e = self.materialize(v, &name);
                        if ty.is_unsigned() {
                            self.assume_never_negative(&e);
                        }
                        Val::Int(e)
                    }
                    v => v,
                }
            }
            None if ty.is_integral() => unknown(self),
            // A pointer declared without a value has none until assigned:
            // left out of the state, so that a branch assigning it decides
            // it after the branch (using it unassigned is undefined).
            None if ty.is_pointer() => return Ok(()),
            None => Val::Unknown,
        };
        self.env.insert(k, v);
        Ok(())
    }

    /// The fields of the structure variable `k` from the braced list
    /// `list` (`{x0 + threadIdx.x, y0}`, `{p + i, stride}`): in order,
    /// those it leaves out zero. A list with nested structures is
    /// evaluated and sets none.
    pub(super) fn init_fields(&mut self, k: &str, list: &Node) -> R<()> {
        let values = exprs(list);
        let mut fields = Vec::new();
        value_fields(list, k, &mut fields);
        let flat = values.len() <= fields.len() && values.iter().all(|v| !v.ty().is_record());
        if !flat {
            fields.clear();
        }
        let name = self
            .spellings
            .get(k)
            .cloned()
            .unwrap_or_else(|| k.to_string());
        for (i, f) in fields.iter().enumerate() {
            let v = match values.get(i) {
                Some(v) => self.rvalue(v)?,
                None => Val::Int(Expr::Int(0)),
            };
            let v = match v {
                v @ (Val::Uniform | Val::Stored(..)) => Val::Int(self.materialize(v, &name)),
                Val::Unknown => continue,
                v => v,
            };
            self.env.insert(f.clone(), v);
        }
        if !flat {
            for v in &values {
                self.rvalue(v)?;
            }
        }
        Ok(())
    }

    pub(super) fn if_stmt(&mut self, s: &Node) -> R<Jumps> {
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
    pub(super) fn branches(
        &mut self,
        c: Cond,
        then: impl FnOnce(&mut Self) -> R<Jumps>,
        els: impl FnOnce(&mut Self) -> R<Jumps>,
        loc: Loc,
    ) -> R<Jumps> {
        // A branch the condition rules out is dead code, which may do what
        // the live one guards against (`p == nullptr ? 1 : p[i]` with a
        // null `p`): it is not lowered.
        match imp::simplify_cond(&c) {
            Cond::Bool(true) => return then(self),
            Cond::Bool(false) => return els(self),
            _ => {}
        }
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

    /// `join`, with a value known only to be shared (a read every thread
    /// of the block makes at one address, a grid-wide scalar, a float
    /// constant) named first when the other side is an integer or another
    /// such value: `c ? bcp[i] : 0` is then as uniform as `c` is, where
    /// the join alone would make it unknown to each thread.
    pub(super) fn join_shared(&mut self, c: &Cond, a: Val, b: Val, hint: &str) -> Val {
        let shared = |v: &Val| matches!(v, Val::Stored(..) | Val::Uniform | Val::Float(_));
        let scalar = |v: &Val| shared(v) || matches!(v, Val::Int(_));
        if a == b || !(scalar(&a) && scalar(&b)) || !(shared(&a) || shared(&b)) {
            return join(c, a, b);
        }
        let name = |me: &mut Self, v: Val| match v {
            v if shared(&v) => Val::Int(me.materialize(v, hint)),
            v => v,
        };
        let a = name(self, a);
        let b = name(self, b);
        join(c, a, b)
    }

    pub(super) fn merge(
        &mut self,
        c: &Cond,
        env_t: HashMap<String, Val>,
        facts_t: Vec<(Target, Vec<Expr>, Expr)>,
    ) {
        let mut merged = HashMap::new();
        // A pointer assigned on one side only, and unassigned on the other
        // (declared without a value), is what that side assigned. An input
        // first read on one side only (`inputs`) has its value on the
        // other.
        let mut only_else = Vec::new();
        for (k, ve) in &self.env {
            if env_t.contains_key(k) {
                continue;
            }
            match self.inputs.get(k) {
                Some(g) => only_else.push((k.clone(), g.clone(), ve.clone())),
                None if matches!(ve, Val::Ptr(_)) => {
                    merged.insert(k.clone(), ve.clone());
                }
                None => {}
            }
        }
        for (k, g, ve) in only_else {
            let v = self.join_shared(c, g, ve, &k);
            merged.insert(k, v);
        }
        for (k, vt) in env_t {
            let ve = match (self.env.get(&k), self.inputs.get(&k)) {
                (Some(ve), _) => ve.clone(),
                (None, Some(g)) => g.clone(),
                (None, None) => {
                    if matches!(vt, Val::Ptr(_)) {
                        merged.insert(k, vt);
                    }
                    continue;
                }
            };
            let v = self.join_shared(c, vt, ve, &k);
            merged.insert(k, v);
        }
        self.env = merged;
        self.facts.retain(|f| facts_t.contains(f));
    }

    /// The variables a loop body assigns: their values change from one
    /// iteration to the next.
    pub(super) fn assigned(&self, n: &Node, out: &mut HashSet<String>) {
        if let Some(target) = assignment_target(n) {
            let t = member_base(target);
            if t.kind() == K::DECL_REF {
                // A `__shared__` variable is memory: assigning it writes
                // the memory and leaves where it is as it was.
                if let Some(d) = t.referenced().filter(|d| !d.is_shared()) {
                    let var = self.aliased(key(&d));
                    // `s.a.b = x` changes that field (and the fields within
                    // it, see `forget`), not the rest of `s`.
                    match field_path(target) {
                        Some(fields) => out.insert(format!("{var}.{fields}")),
                        None => out.insert(var),
                    };
                }
            }
            // `*p = x`, `p[0] = x`, `p->f = x` with `p = &v`: the store sets
            // `v`, whose value after the loop is no value of one iteration.
            let base = pointer_base(target).map(|d| self.aliased(key(&d)));
            if let Some(Val::Ptr(p)) = base.and_then(|k| self.env.get(&k)) {
                for q in std::iter::once(p).chain(p.alts.iter().map(|(_, q)| q)) {
                    if let Target::Private(v) = &q.target {
                        self.assigned_with_fields(v.split('.').next().unwrap_or(v), out);
                    }
                }
            }
        }
        // `&v` of a thread's own variable: whatever the address is handed to
        // (a callee, a pointer declared in the body) may store to `v`.
        if n.kind() == K::UNARY && n.unop() == op::ADDR_OF {
            if let Some(d) = exprs(n)
                .first()
                .map(|t| member_base(*t))
                .filter(|t| t.kind() == K::DECL_REF)
                .and_then(|t| t.referenced())
                .filter(|d| d.kind() == K::VAR && !d.is_shared())
            {
                self.assigned_with_fields(&self.aliased(key(&d)), out);
            }
        }
        // `c.inc()` on a thread's own object: a member function that is
        // not `const` may change any of its fields.
        // (In a template, the class template's member function of that
        // name and arity.)
        let callee = (n.kind() == K::CALL)
            .then(|| exprs(n).first().map(|c| strip(*c)))
            .flatten()
            .filter(|c| c.kind() == K::MEMBER_REF);
        if let Some(callee) = callee {
            let method = n
                .referenced()
                .or_else(|| super::call::dependent_method(&callee, n.args().len()).map(|(m, _)| m));
            let object = Some(callee)
                .filter(|_| !method.is_some_and(|m| m.is_const_method()))
                .and_then(|c| exprs(&c).first().map(|b| member_base(*b)))
                .filter(|b| b.kind() == K::DECL_REF)
                .and_then(|b| b.referenced())
                .filter(|d| d.kind() == K::VAR && !d.is_shared());
            if let Some(d) = object {
                let var = self.aliased(key(&d));
                let method = method.and_then(|m| m.definition());
                match method.as_ref().and_then(fields_assigned) {
                    Some(fields) => {
                        for f in fields {
                            self.assigned_with_fields(&format!("{var}.{f}"), out);
                        }
                    }
                    None => self.assigned_with_fields(&var, out),
                }
            }
        }
        for c in n.children() {
            self.assigned(&c, out);
        }
    }

    /// `var` and the fields of it the lowering tracks (`s.x` of a
    /// structure): a store through its address may change any of them.
    fn assigned_with_fields(&self, var: &str, out: &mut HashSet<String>) {
        let fields = format!("{var}.");
        out.extend(self.env.keys().filter(|k| k.starts_with(&fields)).cloned());
        out.insert(var.to_string());
    }

    pub(super) fn forget(&mut self, vars: &HashSet<String>, names: &HashMap<String, String>) {
        // A structure changes with its fields, read before or not (an
        // input's field first read in the loop is in `inputs`).
        let mut all: BTreeSet<String> = vars.iter().cloned().collect();
        for v in vars {
            let fields = format!("{v}.");
            all.extend(
                self.env
                    .keys()
                    .chain(self.inputs.keys())
                    .filter(|k| k.starts_with(&fields))
                    .cloned(),
            );
        }
        self.forgotten.extend(all.iter().cloned());
        // In name order: the fresh names, and so the protocol and its
        // content hash, are the same in every run.
        for v in &all {
            // An input not read yet may be assigned in the loop too.
            if !self.env.contains_key(v) {
                if let Some(g) = self.inputs.get(v) {
                    self.env.insert(v.clone(), g.clone());
                }
            }
            match self.env.get(v) {
                Some(Val::Int(_)) => {
                    let spelled = |k: &str| names.get(k).or_else(|| self.spellings.get(k)).cloned();
                    // A field is named after its variable: `s.x`.
                    let hint = spelled(v).or_else(|| {
                        let (var, fields) = v.split_once('.')?;
                        Some(format!("{}.{fields}", spelled(var)?))
                    });
                    let hint = hint.unwrap_or_default();
                    let e = self.local(&hint);
                    self.env.insert(v.clone(), Val::Int(e));
                }
                // A pointer that moves stays in its array, at an unknown
                // place.
                Some(Val::Ptr(p)) => {
                    let mut p = p.clone();
                    let hint = format!("{}.offset", names.get(v).cloned().unwrap_or_default());
                    let anywhere = |me: &mut Self, p: &mut Ptr| {
                        let e = me.local(&hint);
                        match p.index.last_mut() {
                            Some(last) => *last = e,
                            None => p.index.push(e),
                        }
                    };
                    let moves = !self.unmoved.contains(v);
                    if moves {
                        anywhere(self, &mut p);
                    }
                    // Which alternative it is may change too.
                    let mut alts = std::mem::take(&mut p.alts);
                    for (c, q) in &mut alts {
                        if moves {
                            anywhere(self, q);
                        }
                        let which = self.local(&format!("{hint}.which"));
                        *c = Cond::cmp(Rel::Ne, which, Expr::Int(0));
                    }
                    p.alts = alts;
                    self.env.insert(v.clone(), Val::Ptr(p));
                }
                Some(_) => {
                    self.env.insert(v.clone(), Val::Unknown);
                }
                None => {}
            }
        }
    }

    pub(super) fn var_names(n: &Node, out: &mut HashMap<String, String>) {
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
    pub(super) fn for_parts<'a>(
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

    /// A loop lowered with each pointer it assigns in every array the
    /// pointer reaches in some iteration: a pointer that moves to another
    /// array in the body (`tmp = in; in = out; out = tmp;`) is, at the top
    /// of an iteration, in any of them. Lowering the loop shows the arrays
    /// an iteration ends in; when they are new, the loop is lowered again
    /// with the pointer in any of those and the ones it started in.
    pub(super) fn pointers_across_iterations(
        &mut self,
        s: &Node,
        lower: impl Fn(&mut Self) -> R<Jumps>,
    ) -> R<Jumps> {
        let mut assigned = HashSet::new();
        self.assigned(s, &mut assigned);
        let mut pointers: Vec<String> = assigned
            .into_iter()
            .filter(|v| matches!(self.env.get(v), Some(Val::Ptr(_))))
            .collect();
        pointers.sort();
        if pointers.is_empty() {
            return lower(self);
        }
        let outer = self.unmoved.clone();
        // Each pointer is first taken to keep its place; one an iteration
        // moves is lowered again at any place.
        let swapped: Vec<String> = pointers
            .iter()
            .filter(|v| self.only_copied(s, v))
            .cloned()
            .collect();
        self.unmoved.extend(swapped);
        let r = self.lower_until_pointers_settle(s, &pointers, &outer, lower);
        self.unmoved = outer;
        r
    }

    /// [`Self::pointers_across_iterations`]'s rounds: the loop lowered
    /// until no pointer ends an iteration where it could not start one.
    fn lower_until_pointers_settle(
        &mut self,
        s: &Node,
        pointers: &[String],
        outer: &HashSet<String>,
        lower: impl Fn(&mut Self) -> R<Jumps>,
    ) -> R<Jumps> {
        let (facts0, out0) = (self.facts.clone(), self.out.len());
        // Returns a discarded lowering reached are not the function's.
        let returns0 = self.returns.last().map_or(0, Vec::len);
        let mut start = self.env.clone();
        for _ in 0..MAX_ALTS + 2 {
            let before = std::mem::take(&mut self.forgotten);
            let j = lower(self);
            let here = std::mem::replace(&mut self.forgotten, before);
            self.forgotten.extend(here.iter().cloned());
            let j = j?;
            let mut grown = false;
            // An unrolled loop follows each pointer exactly.
            for v in pointers.iter().filter(|v| here.contains(*v)) {
                let (Some(Val::Ptr(before)), Some(Val::Ptr(after))) =
                    (start.get(v).cloned(), self.env.get(v).cloned())
                else {
                    continue;
                };
                let known = before.targets();
                if after.targets().iter().all(|t| known.contains(t)) {
                    if self.unmoved.contains(v)
                        && !outer.contains(v)
                        && !after.places_within(&before)
                    {
                        self.unmoved.remove(v);
                        grown = true;
                    }
                    continue;
                }
                let which = self.local("which");
                let c = Cond::cmp(Rel::Ne, which, Expr::Int(0));
                match Ptr::either(&c, after, before) {
                    Some(p) => {
                        start.insert(v.clone(), Val::Ptr(p));
                    }
                    None => {
                        return unsupported(
                            s,
                            "a pointer that moves among too many arrays in a loop",
                        )
                    }
                }
                grown = true;
            }
            if !grown {
                return Ok(j);
            }
            self.env = start.clone();
            self.facts = facts0.clone();
            self.out.truncate(out0);
            if let Some(r) = self.returns.last_mut() {
                r.truncate(returns0);
            }
        }
        unsupported(s, "a pointer that moves among too many arrays in a loop")
    }

    /// Whether every assignment to `v` inside `n` copies another variable
    /// (`in = out`, `p = c ? a : b`): a pointer only swapped, never moved.
    pub(super) fn only_copied(&self, n: &Node, v: &str) -> bool {
        fn copy(n: Node) -> bool {
            let n = strip(n);
            match n.kind() {
                k if k == K::DECL_REF => true,
                k if k == K::CONDITIONAL => exprs(&n).into_iter().skip(1).all(copy),
                _ => false,
            }
        }
        if let Some(target) = assignment_target(n) {
            let ch = exprs(n);
            let to_v = {
                let t = strip(target);
                t.kind() == K::DECL_REF
                    && t.referenced().is_some_and(|d| self.aliased(key(&d)) == v)
            };
            let copies = n.kind() == K::BINARY && ch.len() == 2 && copy(ch[1]);
            if to_v && !copies {
                return false;
            }
        }
        n.children().iter().all(|c| self.only_copied(c, v))
    }

    pub(super) fn for_stmt(&mut self, s: &Node) -> R<Jumps> {
        let butterfly = self.xor_butterfly(s);
        let j = self.for_loop(s)?;
        if let Some((var, width)) = butterfly {
            let v = self.collective(Expr::Int(width));
            self.env.insert(var, v);
        }
        Ok(j)
    }

    fn for_loop(&mut self, s: &Node) -> R<Jumps> {
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
        if self.uncounted.contains(&loc_of(s)) {
            if let Some(i) = inc {
                self.assigned(&i, &mut assigned);
            }
            return self.generic_loop(s, cond, &body, inc, &assigned, &names, false);
        }
        if let Some(shape) = self.loop_shape(cond, inc, &assigned) {
            return self.counted_loop(s, shape, &[body], &assigned, &names);
        }
        // `a += sa, b += sb`: the part that steps the bounded variable is
        // the loop's step, the others end each iteration's body.
        let steps = inc.map(|i| comma_parts(&i)).unwrap_or_default();
        if steps.len() > 1 {
            for (k, step) in steps.iter().enumerate() {
                let rest: Vec<Node> = steps
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, n)| *n)
                    .collect();
                let mut all = assigned.clone();
                rest.iter().for_each(|n| self.assigned(n, &mut all));
                if let Some(shape) = self.loop_shape(cond, Some(*step), &all) {
                    let mut items = vec![body];
                    items.extend(rest);
                    return self.counted_loop(s, shape, &items, &all, &names);
                }
            }
        }
        if let Some(i) = inc {
            self.assigned(&i, &mut assigned);
        }
        self.generic_loop(s, cond, &body, inc, &assigned, &names, false)
    }

    /// `for (T v : a)` over an array of a constant size `n`: a counted loop
    /// from 0 to `n` whose hidden iterator (clang's `__begin`, which the
    /// loop variable is declared from) walks the array's cells.
    fn range_for(&mut self, s: &Node) -> R<Jumps> {
        let ch = s.children();
        let [var, range, body] = ch.as_slice() else {
            return unsupported(s, "a range-based for clang does not expose");
        };
        let Some(n) = range.ty().array_size() else {
            return unsupported(
                s,
                "a range-based for over a container (only arrays are modelled)",
            );
        };
        let Some(cursor) = hidden_iterator(var) else {
            return unsupported(s, "a range-based for clang does not expose");
        };
        let Some(start) = self.pointer(range)? else {
            return unsupported(s, "a range-based for over an array of unknown origin");
        };
        let counter = format!("{}#range", key(s));
        self.env.insert(counter.clone(), Val::Int(Expr::Int(0)));
        let shape = Shape {
            var: counter,
            lo: Expr::Int(0),
            rel: Rel::Lt,
            bound: Expr::Int(n),
            step: Step::Add(Expr::Int(1)),
            rest: None,
            cursor: Some((cursor, start)),
        };
        let mut assigned = HashSet::new();
        self.assigned(body, &mut assigned);
        let mut names = HashMap::new();
        Self::var_names(s, &mut names);
        names.insert(shape.var.clone(), format!("{}#index", var.spelling()));
        self.counted_loop(s, shape, &[*var, *body], &assigned, &names)
    }

    pub(super) fn while_stmt(&mut self, s: &Node, is_do: bool) -> R<Jumps> {
        let ch = s.children();
        let (cond, body) = if is_do {
            (ch.get(1).copied(), ch.first().copied())
        } else {
            (ch.first().copied(), ch.get(1).copied())
        };
        let Some(body) = body else {
            return unsupported(s, "loop without a body");
        };
        if self.spin_acquire(s, cond, &body)? {
            return Ok(Jumps::none());
        }
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
                if shape.is_none() && j.any() == Cond::Bool(false) {
                    // The rest is a `while` loop: its test, taken where
                    // each iteration starts, is the one the previous
                    // iteration ended with, and stays around the body.
                    let mut all = HashSet::new();
                    self.assigned(s, &mut all);
                    return self.generic_loop(s, cond, &body, None, &all, &names, false);
                }
                if shape.is_none() {
                    self.env = env0;
                    self.facts = facts0;
                    self.out.truncate(out0);
                }
                shape
            } else {
                self.loop_shape(cond, Some(*last), &assigned)
            };
            if let Some(shape) = counted.filter(|_| !self.uncounted.contains(&loc_of(s))) {
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
    pub(super) fn generic_loop(
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
        if cond.is_some_and(|c| waits_on_memory(&c)) {
            // A spin lock or a flag: threads order each other through
            // memory, which protocols do not model, so no race after it
            // can be confirmed.
            let note = format!(
                "the loop at {loc} waits on memory other threads change (a lock or a flag); the order it makes between threads is not modelled"
            );
            self.approximate(&note);
        }
        // Variables the body steps once per iteration by a constant amount
        // (`tid += stride` in `while (1) { if (tid - threadIdx.x >= n)
        // break; …; tid += stride; }`) are their start plus `iter` steps:
        // iterations past the loop's real end only add accesses.
        let mut items = if body.kind() == K::COMPOUND {
            body.children()
        } else {
            vec![*body]
        };
        // A `for`'s increment steps too, at the end of every trip that
        // stays.
        items.extend(inc);
        let inductions = self.stepped_once(&items, assigned, assigned);
        // The test each trip ends with, where no increment runs after it.
        let test = cond.filter(|_| inc.is_none());
        let cycles = self.cycled_once(&items, assigned, test.as_ref());
        let before = self.int_values(assigned);
        self.forget(assigned, names);
        let heads = self.fresh_values(&before);
        self.continues.push(Vec::new());
        self.facts.clear();
        let var = self.name("iter");
        let bound = self.unknown_param("iterations");
        self.step_inductions(inductions, &Expr::var(&var));
        self.step_cycles(cycles, &Expr::var(&var));
        self.loop_vars.push(var.clone());
        // Every count of trips is possible, so a trip that breaks out may
        // be taken as the last.
        let last = Expr::sub(Expr::var(&bound), Expr::Int(1));
        let not_last = Cond::not(Cond::cmp(Rel::Eq, Expr::var(&var), last));
        let target = self.break_targets.last_mut();
        let outer = target.map(|t| std::mem::replace(t, BreakTarget::Uncounted(not_last)));
        let r = self.capture(|me| {
            let c = match cond {
                Some(c) if !is_do => me.cond(&c)?,
                // A `do`-`while` runs its first trip unconditionally; a
                // later one starts where the test the trip before ended
                // with held, and that test is over the values the trip
                // starts with. Its reads are the previous trip's, made
                // again at the end below; its effects are that trip's too.
                Some(c) => {
                    let (env0, facts0) = (me.env.clone(), me.facts.clone());
                    let (test, _) = me.capture(|me| me.cond(&c))?;
                    me.env = env0;
                    me.facts = facts0;
                    let first = Cond::cmp(Rel::Eq, Expr::var(&var), Expr::Int(0));
                    Cond::or(first, test)
                }
                None => Cond::Bool(true),
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
            // The exit test stays around a synchronized body too: a thread
            // that leaves while others go on skips the barriers they wait
            // at, which only a test the block agrees on rules out.
            me.emit_if(c.clone(), b, Stmt::skip(), loc);
            Ok((j, c))
        });
        self.loop_vars.pop();
        if let (Some(t), Some(outer)) = (self.break_targets.last_mut(), outer) {
            *t = outer;
        }
        let continued = self.continues.pop().unwrap_or_default();
        let ((j, c), b) = r?;
        let mut test = cond_vars(&c);
        test.remove(&var);
        self.carry(&before, &heads, &continued, &j, test.clone());
        // The iteration count is the same for the block's threads at a
        // point they reach together when the test is.
        self.counter_stands_for(&var, &test);
        self.emit(Stmt::For {
            var,
            lo: Expr::Int(0),
            hi: Expr::Var(bound),
            body: Box::new(b),
            loc,
        });
        self.facts.clear();
        self.forget(assigned, names);
        self.carry_out(&heads, &j);
        Ok(self.after_loop(j))
    }

    /// The integer values of `vars` now, by variable.
    fn int_values(&self, vars: &HashSet<String>) -> BTreeMap<String, Expr> {
        vars.iter()
            .filter_map(|v| match self.env.get(v) {
                Some(Val::Int(e)) => Some((v.clone(), e.clone())),
                _ => None,
            })
            .collect()
    }

    /// The fresh local each of `before`'s variables holds now (just
    /// forgotten), by variable.
    fn fresh_values(&self, before: &BTreeMap<String, Expr>) -> BTreeMap<String, String> {
        before
            .keys()
            .filter_map(|v| match self.env.get(v) {
                Some(Val::Int(Expr::Var(l))) if !before.values().any(|e| *e == Expr::var(l)) => {
                    Some((v.clone(), l.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Records each loop variable's value at the start of an iteration
    /// (`heads`) as a `Kernel::carried` local, once the body is lowered:
    /// it depends on its value before the loop, what the body leaves it
    /// at its end and at each `continue`, the conditions of the body's
    /// jumps and `deps` (the loop's test or range).
    fn carry(
        &mut self,
        before: &BTreeMap<String, Expr>,
        heads: &BTreeMap<String, String>,
        continued: &[HashMap<String, Val>],
        j: &Jumps,
        mut deps: BTreeSet<String>,
    ) {
        for c in [&j.ret, &j.brk, &j.cont]
            .into_iter()
            .chain(j.gotos.iter().map(|(_, c)| c))
        {
            deps.extend(cond_vars(c));
        }
        let int = |v: Option<&Val>| -> Option<Expr> {
            match v {
                Some(Val::Int(e)) => Some(e.clone()),
                _ => None,
            }
        };
        for (v, head) in heads {
            let mut values = vec![before[v].clone()];
            let ends = std::iter::once(&self.env)
                .chain(continued)
                .map(|state| int(state.get(v)));
            match ends.collect::<Option<Vec<Expr>>>() {
                Some(ends) => values.extend(ends),
                // A pointer or an unknown kind of value at some point.
                None => continue,
            }
            let mut mine = deps.clone();
            for e in &values {
                e.free_vars(&mut mine);
            }
            mine.remove(head);
            self.prog.carried.push(crate::protocol::Carried {
                local: head.clone(),
                deps: mine.into_iter().collect(),
            });
        }
    }

    /// In what the recorded loop variables depend on, a loop's `counter`
    /// gives way to the names its trips depend on (`by`): the counter is
    /// the block's at a point its threads reach together when those are.
    fn counter_stands_for(&mut self, counter: &str, by: &BTreeSet<String>) {
        for c in &mut self.prog.carried {
            if c.deps.iter().any(|d| d == counter) {
                c.deps.retain(|d| d != counter);
                c.deps.extend(by.iter().cloned());
                c.deps.sort();
                c.deps.dedup();
            }
        }
    }

    /// The locals the loop's variables hold once it is done, as
    /// `Kernel::carried` locals that depend on their values at the start
    /// of an iteration: the loop ended at one of those, unless something
    /// jumped out of it.
    fn carry_out(&mut self, heads: &BTreeMap<String, String>, j: &Jumps) {
        let whole = [&j.ret, &j.brk].iter().all(|c| **c == Cond::Bool(false)) && j.gotos.is_empty();
        if !whole {
            return;
        }
        for (v, head) in heads {
            if let Some(Val::Int(Expr::Var(out))) = self.env.get(v) {
                if out != head {
                    self.prog.carried.push(crate::protocol::Carried {
                        local: out.clone(),
                        deps: vec![head.clone()],
                    });
                }
            }
        }
    }

    /// A `return` (or a `goto` past the loop) inside a loop may end the
    /// kernel at any iteration; after the loop, whether it did is unknown.
    pub(super) fn after_loop(&mut self, j: Jumps) -> Jumps {
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

    pub(super) fn loop_shape<'a>(
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
                let [a, b] = rch.as_slice() else {
                    return None;
                };
                // `i = i * 2`, or with the operands the other way round
                // where the operator allows it (`i = 2 * i`).
                if var_key(a) == Some(target.clone()) {
                    (rhs.binop(), *b)
                } else if var_key(b) == Some(target.clone())
                    && [op::ADD, op::MUL].contains(&rhs.binop())
                {
                    (rhs.binop(), *a)
                } else {
                    return None;
                }
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
            cursor: None,
        })
    }

    pub(super) fn bound_of<'a>(
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
        let flip = |r: Rel| r.flip();
        if var_key(&l).as_deref() == Some(var) && !mentions(&r, assigned) {
            Some((rel, self.pure_int(&r)?, None))
        } else if var_key(&r).as_deref() == Some(var) && !mentions(&l, assigned) {
            Some((flip(rel), self.pure_int(&l)?, None))
        } else if let Some(k) = self
            .shifted(&l, var, assigned)
            .filter(|_| !mentions(&r, assigned))
        {
            // `var + k <= n` (a tile that fits whole) bounds `var` by `n - k`.
            let bound = self.pure_int(&r)?;
            Some((rel, Expr::bin(Op::Sub, bound, k), None))
        } else if let Some(k) = self
            .shifted(&r, var, assigned)
            .filter(|_| !mentions(&l, assigned))
        {
            let bound = self.pure_int(&l)?;
            Some((flip(rel), Expr::bin(Op::Sub, bound, k), None))
        } else {
            None
        }
    }

    /// `k` when `n` is `var + k` or `k + var`, and `-c` when it is `var -
    /// c`, with `k` and `c` values the loop does not change.
    fn shifted(&mut self, n: &Node, var: &str, assigned: &HashSet<String>) -> Option<Expr> {
        let n = strip(*n);
        if n.kind() != K::BINARY || ![op::ADD, op::SUB].contains(&n.binop()) {
            return None;
        }
        let ch = exprs(&n);
        let (a, b) = (strip(*ch.first()?), strip(*ch.get(1)?));
        let (k, negate) = if var_key(&a).as_deref() == Some(var) {
            (b, n.binop() == op::SUB)
        } else if var_key(&b).as_deref() == Some(var) && n.binop() == op::ADD {
            (a, false)
        } else {
            return None;
        };
        if mentions(&k, assigned) {
            return None;
        }
        let k = self.pure_int(&k)?;
        Some(if negate {
            Expr::bin(Op::Sub, Expr::Int(0), k)
        } else {
            k
        })
    }

    /// The induction variables of a counted loop's body: of `assigned`, the
    /// ones one statement of the body steps by a value the loop does not
    /// change (`offset += n`, `p += stride`, `i++`), with no other
    /// assignment and no `continue` before it, so that every iteration
    /// steps them once. With their values at the loop's entry and steps.
    pub(super) fn inductions(
        &mut self,
        shape: &Shape,
        body: &[Node],
        assigned: &HashSet<String>,
    ) -> Vec<(String, Val, Expr)> {
        if !matches!(
            shape.step,
            Step::Add(Expr::Int(1..)) | Step::Sub(Expr::Int(1..))
        ) {
            return Vec::new();
        }
        // A step or guard naming the counter changes with it.
        let mut varying = assigned.clone();
        varying.insert(shape.var.clone());
        self.stepped_once(body, assigned, &varying)
    }

    /// Of `assigned`, the variables one statement of a loop's `body` steps
    /// once per iteration by a value the loop does not change (see
    /// [`Lower::inductions`]), with their values at the loop's entry and
    /// their steps. `varying` holds what the loop changes: `assigned` and
    /// its counter.
    fn stepped_once(
        &mut self,
        body: &[Node],
        assigned: &HashSet<String>,
        varying: &HashSet<String>,
    ) -> Vec<(String, Val, Expr)> {
        let body: Vec<Node> = match body {
            [only] if only.kind() == K::COMPOUND => only.children(),
            _ => body.to_vec(),
        };
        let mut out = Vec::new();
        for (i, st) in body.iter().enumerate() {
            let st = strip(*st);
            let (var, step, guard) = match self.step_of(&st) {
                Some((var, step)) => (var, step, None),
                None => match self.guarded_step(&st, varying) {
                    Some((var, step, guard)) => (var, step, Some(guard)),
                    None => {
                        for (var, step) in self.nested_steps(&st, assigned, varying) {
                            if let Some(start) = self.stepped_start(&body, i, &var, assigned, &out)
                            {
                                out.push((var, start, step));
                            }
                        }
                        continue;
                    }
                },
            };
            if step.as_ref().is_some_and(|(n, _)| mentions(n, varying)) {
                continue;
            }
            let Some(start) = self.stepped_start(&body, i, &var, assigned, &out) else {
                continue;
            };
            let step = match step {
                None => Some(Expr::Int(1)),
                Some((n, sign)) => self
                    .pure_int(&n)
                    .map(|e| simplify(&Expr::bin(Op::Mul, Expr::Int(sign), e))),
            };
            let step = match guard {
                None => step,
                Some(c) => {
                    step.map(|s| Expr::Ite(Box::new(c), Box::new(s), Box::new(Expr::Int(0))))
                }
            };
            if let Some(step) = step {
                out.push((var, start, step));
            }
        }
        out
    }

    /// The value at the loop's entry of `var`, which statement `i` of
    /// `body` steps, when that makes it an induction: one of `assigned` not
    /// found already, with no other assignment in the body and no
    /// `continue` before the step.
    fn stepped_start(
        &self,
        body: &[Node],
        i: usize,
        var: &str,
        assigned: &HashSet<String>,
        found: &[(String, Val, Expr)],
    ) -> Option<Val> {
        if !assigned.contains(var) || found.iter().any(|(v, _, _)| v == var) {
            return None;
        }
        let mut count = 0;
        for s in body {
            self.count_assignments(s, var, &mut count);
        }
        if count != 1 || body[..i].iter().any(has_continue) {
            return None;
        }
        self.env.get(var).cloned()
    }

    /// The variables a counted loop `st` nested in a loop's body steps once
    /// per iteration of its own (`for (j = 0; j < kw; ++j) { …; p += s; }`,
    /// im2col's column pointer), with what one whole run of it adds: its
    /// trip count times the step. Only a loop counted by one from a start
    /// to a bound its enclosing loop does not change, that no `break`,
    /// `return` or `goto` leaves early.
    fn nested_steps(
        &mut self,
        st: &Node,
        assigned: &HashSet<String>,
        varying: &HashSet<String>,
    ) -> Vec<(String, Expr)> {
        if st.kind() != K::FOR {
            return Vec::new();
        }
        let (Some(init), Some(cond), Some(inc), Some(body)) = Self::for_parts(st) else {
            return Vec::new();
        };
        let Some((counter, start)) = for_counter(init) else {
            return Vec::new();
        };
        let inc = strip(inc);
        let is_counter =
            |n: Option<&Node>| n.and_then(var_key).as_deref() == Some(counter.as_str());
        let by_one = match inc.kind() {
            K::UNARY => {
                matches!(inc.unop(), op::PRE_INC | op::POST_INC) && is_counter(exprs(&inc).first())
            }
            K::COMPOUND_ASSIGN => {
                let ch = exprs(&inc);
                compound_base(inc.binop()) == op::ADD
                    && is_counter(ch.first())
                    && ch.get(1).and_then(|n| self.pure_int(n)) == Some(Expr::Int(1))
            }
            _ => false,
        };
        // A counter its body steps too runs fewer times than its bound says.
        let mut counted = 0;
        self.count_assignments(&body, &counter, &mut counted);
        if !by_one || counted != 0 || mentions(&start, varying) || leaves_early(&body) {
            return Vec::new();
        }
        let mut inner = varying.clone();
        inner.insert(counter.clone());
        let Some(lo) = self.pure_int(&start) else {
            return Vec::new();
        };
        let hi = match self.bound_of(&strip(cond), &counter, &inner) {
            Some((Rel::Lt, b, None)) => b,
            Some((Rel::Le, b, None)) => Expr::add(b, Expr::Int(1)),
            _ => return Vec::new(),
        };
        let trip = simplify(&Expr::sub(hi.clone(), lo.clone()));
        // A loop that may not run at all steps nothing.
        let ran = if lo == Expr::Int(0) && self.never_negative(&hi) {
            None
        } else {
            Some(Cond::cmp(Rel::Lt, lo.clone(), hi.clone()))
        };
        let items = match body.kind() {
            K::COMPOUND => body.children(),
            _ => vec![body],
        };
        let times = |s: Expr| simplify(&Expr::bin(Op::Mul, trip.clone(), s));
        self.stepped_once(&items, assigned, &inner)
            .into_iter()
            .filter(|(v, _, _)| *v != counter)
            .map(|(v, _, step)| {
                let whole = match step {
                    Expr::Ite(c, a, b) => Expr::Ite(c, Box::new(times(*a)), Box::new(times(*b))),
                    step => times(step),
                };
                let whole = match &ran {
                    None => whole,
                    Some(c) => {
                        Expr::Ite(Box::new(c.clone()), Box::new(whole), Box::new(Expr::Int(0)))
                    }
                };
                (v, whole)
            })
            .collect()
    }

    /// Whether `e` is never negative: a sum of products of constants at
    /// least 0, kernel parameters (natural numbers) and launch values.
    fn never_negative(&self, e: &Expr) -> bool {
        match e {
            Expr::Int(c) => *c >= 0,
            Expr::Var(v) => {
                self.prog.params.contains(v) || builtin::is_dim(v) || builtin::is_thread_id(v)
            }
            Expr::Bin(Op::Add | Op::Mul, a, b) => self.never_negative(a) && self.never_negative(b),
            _ => false,
        }
    }

    /// `if (c) { …; v += s; }` with no `else`, `c` the same in every
    /// iteration (`tid == 0` around a store and the step of its place):
    /// `v` steps by `s` where `c` holds and by 0 elsewhere. The variable's
    /// key, the step as [`Lower::step_of`] gives it, and `c`.
    fn guarded_step<'a>(
        &mut self,
        st: &Node<'a>,
        varying: &HashSet<String>,
    ) -> Option<(String, Option<(Node<'a>, i64)>, Cond)> {
        if st.kind() != K::IF {
            return None;
        }
        let parts = st.children();
        let [cond, then] = parts.as_slice() else {
            return None;
        };
        let then: Vec<Node> = match then.kind() {
            K::COMPOUND => then.children(),
            _ => vec![*then],
        };
        let (at, (var, step)) = then
            .iter()
            .enumerate()
            .find_map(|(i, s)| Some((i, self.step_of(&strip(*s))?)))?;
        if then[..at].iter().any(has_continue) || mentions(cond, varying) || reads_memory(cond) {
            return None;
        }
        let c = super::expr::as_cond(&self.pure_int(cond)?);
        Some((var, step, c))
    }

    /// Of `assigned`, the variables one statement at the top of a loop's
    /// `body` moves round a short cycle once per iteration, with no other
    /// assignment and no `continue` before it: the stage of a double or
    /// multi-stage buffer (`stage ^= 1`, `stage = 1 - stage`, `stage =
    /// (stage + 1) % STAGES`). With their values at the loop's entry.
    /// In a `while` or `do`-`while` loop whose `test` is given, a move
    /// under `if (test)` that nothing after it in the trip changes the
    /// test of (`if (tile < K) { …; __syncthreads(); stage ^= 1; } } while
    /// (tile < K);`) happens in every trip but the last, which no trip
    /// follows: the same.
    pub(super) fn cycled_once(
        &mut self,
        body: &[Node],
        assigned: &HashSet<String>,
        test: Option<&Node>,
    ) -> Vec<(String, Expr, Cycle)> {
        let body: Vec<Node> = match body {
            [only] if only.kind() == K::COMPOUND => only.children(),
            _ => body.to_vec(),
        };
        let spelled =
            |n: &Node| -> Vec<String> { n.tokens().into_iter().map(|(t, _)| t).collect() };
        let mut out: Vec<(String, Expr, Cycle)> = Vec::new();
        for (i, st) in body.iter().enumerate() {
            let st = strip(*st);
            let found = match self.cycle_of(&st) {
                Some(found) => Some(found),
                None => (|| {
                    let test = test?;
                    let parts = st.children();
                    let [cond, then] = parts.as_slice() else {
                        return None;
                    };
                    if st.kind() != K::IF || spelled(cond) != spelled(test) {
                        return None;
                    }
                    let then: Vec<Node> = match then.kind() {
                        K::COMPOUND => then.children(),
                        _ => vec![*then],
                    };
                    let (var, cycle) = then.iter().find_map(|t| self.cycle_of(&strip(*t)))?;
                    // The test reads the same values where the trip ends.
                    let mut read = HashMap::new();
                    Self::var_names(cond, &mut read);
                    let later = then.iter().chain(&body[i + 1..]);
                    let mut changed = 0;
                    for n in later {
                        for v in read.keys() {
                            self.count_assignments(n, v, &mut changed);
                        }
                    }
                    let jumps = body.iter().any(|b| leaves_early(b) || has_continue(b));
                    (changed == 0 && !jumps).then_some((var, cycle))
                })(),
            };
            let Some((var, cycle)) = found else {
                continue;
            };
            if !assigned.contains(&var) || out.iter().any(|(v, _, _)| *v == var) {
                continue;
            }
            let mut count = 0;
            for s in &body {
                self.count_assignments(s, &var, &mut count);
            }
            if count != 1 || body[..i].iter().any(has_continue) {
                continue;
            }
            let Some(Val::Int(start)) = self.env.get(&var).cloned() else {
                continue;
            };
            // `(v + 1) % m` counts round from a start in the cycle.
            if let Cycle::Round(m) = cycle {
                if !matches!(simplify(&start), Expr::Int(v) if (0..m).contains(&v)) {
                    continue;
                }
            }
            out.push((var, start, cycle));
        }
        out
    }

    /// `v ^= c`, `v = v ^ c`, `v = c - v`, `v = (v + 1) % m`: the
    /// variable's key and its cycle, for constants `c` and `m > 0`.
    fn cycle_of(&self, n: &Node) -> Option<(String, Cycle)> {
        let var = slot_key(&assignment_target(n)?).map(|k| self.aliased_slot(k))?;
        let is_var = |x: &Node| slot_key(x).map(|k| self.aliased_slot(k)).as_deref() == Some(&var);
        let ch = exprs(n);
        let constant = |_: &Self, x: &Node| strip(*x).eval_int();
        if n.kind() == K::COMPOUND_ASSIGN {
            if compound_base(n.binop()) != op::XOR {
                return None;
            }
            return Some((var, Cycle::Flip(constant(self, ch.get(1)?)?)));
        }
        if n.kind() != K::BINARY || n.binop() != op::ASSIGN {
            return None;
        }
        let value = strip(*ch.get(1)?);
        let parts = exprs(&value);
        let [a, b] = parts.as_slice() else {
            return None;
        };
        if value.kind() != K::BINARY {
            return None;
        }
        match value.binop() {
            op::XOR if is_var(a) => Some((var, Cycle::Flip(constant(self, b)?))),
            op::XOR if is_var(b) => Some((var, Cycle::Flip(constant(self, a)?))),
            op::SUB if is_var(b) => Some((var, Cycle::Reflect(constant(self, a)?))),
            op::REM => {
                let m = constant(self, b).filter(|m| *m > 0)?;
                let sum = strip(*a);
                let terms = exprs(&sum);
                let one = |me: &Self, x: &Node| constant(me, x) == Some(1);
                let counts = sum.kind() == K::BINARY
                    && sum.binop() == op::ADD
                    && matches!(terms.as_slice(), [x, y]
                        if (is_var(x) && one(self, y)) || (is_var(y) && one(self, x)));
                counts.then_some((var, Cycle::Round(m)))
            }
            _ => None,
        }
    }

    /// Each variable of [`Lower::cycled_once`] at iteration `k` (counted
    /// from 0).
    fn step_cycles(&mut self, cycles: Vec<(String, Expr, Cycle)>, k: &Expr) {
        for (var, start, cycle) in cycles {
            let even = Cond::cmp(
                Rel::Eq,
                Expr::bin(Op::Mod, k.clone(), Expr::Int(2)),
                Expr::Int(0),
            );
            let moved = |other: Expr| {
                Expr::Ite(
                    Box::new(even.clone()),
                    Box::new(start.clone()),
                    Box::new(other),
                )
            };
            let value = match cycle {
                Cycle::Flip(c) => moved(Expr::bin(Op::BitXor, start.clone(), Expr::Int(c))),
                Cycle::Reflect(c) => moved(Expr::sub(Expr::Int(c), start.clone())),
                Cycle::Round(m) => {
                    Expr::bin(Op::Mod, Expr::add(start.clone(), k.clone()), Expr::Int(m))
                }
            };
            self.env.insert(var, Val::Int(simplify(&value)));
        }
    }

    /// Each induction variable at iteration `k` (counted from 0): its start
    /// plus `k` steps.
    fn step_inductions(&mut self, inductions: Vec<(String, Val, Expr)>, k: &Expr) {
        for (var, start, step) in inductions {
            // A guarded step (`c ? s : 0`) steps `k` times where `c` holds:
            // the product taken inside the choice stays linear.
            let times = |s: Expr| simplify(&Expr::bin(Op::Mul, k.clone(), s));
            let by = match step {
                Expr::Ite(c, a, b) => Expr::Ite(c, Box::new(times(*a)), Box::new(times(*b))),
                step => times(step),
            };
            let value = match start {
                Val::Int(e) => Some(Val::Int(simplify(&Expr::add(e, by)))),
                Val::Ptr(mut p) if p.alts.is_empty() => p.cell_of(by).map(|by| {
                    p.advance(Op::Add, by);
                    Val::Ptr(p)
                }),
                _ => None,
            };
            if let Some(value) = value {
                self.env.insert(var, value);
            }
        }
    }

    /// `v += c`, `v -= c`, `v = v + c`, `v++`: the variable's key and the
    /// node of `c` with its sign (none for a step of one).
    fn step_of<'a>(&self, n: &Node<'a>) -> Option<(String, Option<(Node<'a>, i64)>)> {
        let resolve = |k: String| self.aliased_slot(k);
        let var_key = slot_key;
        let k = n.kind();
        if k == K::UNARY && matches!(n.unop(), op::PRE_INC | op::POST_INC) {
            return Some((resolve(var_key(exprs(n).first()?)?), None));
        }
        if let Some((o, operands)) = super::call::unresolved_operator(n) {
            let var = resolve(var_key(operands.first()?)?);
            return match (o.as_str(), operands.as_slice()) {
                ("operator++", _) => Some((var, None)),
                ("operator+=", [_, r]) => Some((var, Some((*r, 1)))),
                ("operator-=", [_, r]) => Some((var, Some((*r, -1)))),
                _ => None,
            };
        }
        let ch = exprs(n);
        let [l, r] = ch.as_slice() else { return None };
        let var = resolve(var_key(l)?);
        if k == K::COMPOUND_ASSIGN {
            return match compound_base(n.binop()) {
                op::ADD => Some((var, Some((*r, 1)))),
                op::SUB => Some((var, Some((*r, -1)))),
                _ => None,
            };
        }
        if k != K::BINARY || n.binop() != op::ASSIGN {
            return None;
        }
        let r = strip(*r);
        let parts = exprs(&r);
        let [a, b] = parts.as_slice() else {
            return None;
        };
        let is_var = |x: &Node| var_key(x).map(resolve).as_deref() == Some(var.as_str());
        match r.binop() {
            op::ADD if is_var(a) => Some((var, Some((*b, 1)))),
            op::ADD if is_var(b) => Some((var, Some((*a, 1)))),
            op::SUB if is_var(a) => Some((var, Some((*b, -1)))),
            _ => None,
        }
    }

    fn count_assignments(&self, n: &Node, var: &str, count: &mut usize) {
        if let Some(target) = assignment_target(n) {
            let target = slot_key(&target);
            let target = target.map(|k| self.aliased_slot(k));
            // `s = t` assigns each field of `s` too.
            let within = |t: &str| var.strip_prefix(t).is_some_and(|r| r.starts_with('.'));
            if target.as_deref().is_some_and(|t| t == var || within(t)) {
                *count += 1;
            }
        }
        for c in n.children() {
            self.count_assignments(&c, var, count);
        }
    }

    /// The value of an expression without memory accesses or calls.
    pub(super) fn pure_int(&mut self, n: &Node) -> Option<Expr> {
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

    pub(super) fn counted_loop(
        &mut self,
        s: &Node,
        shape: Shape,
        body: &[Node],
        assigned: &HashSet<String>,
        names: &HashMap<String, String>,
    ) -> R<Jumps> {
        let loc = loc_of(s);
        if let Some(values) = constant_values(&shape) {
            // Nested loops over constants multiply their copies (three of
            // seven iterations: 343 bodies); past a budget the inner ones
            // that count by steps stay loops, whose counters the solver
            // bounds. Loops that double or halve are few iterations whose
            // powers of two bitwise indexes need exactly.
            let copies = self.unrolled_copies * values.len() as u64;
            let geometric = matches!(shape.step, Step::Mul(_) | Step::Div(_));
            if copies <= MAX_UNROLLED_COPIES || geometric {
                let outer = std::mem::replace(&mut self.unrolled_copies, copies);
                let lowered = self.unrolled(shape, &values, body, loc);
                self.unrolled_copies = outer;
                return lowered;
            }
        }
        let src_name = names.get(&shape.var).cloned().unwrap_or_else(|| "i".into());
        let v = self.name(&src_name);
        let returns0 = self.returns.last().map_or(0, Vec::len);
        let mut others = assigned.clone();
        others.remove(&shape.var);
        let mut inductions = self.inductions(&shape, body, &others);
        let cycles = self.cycled_once(body, &others, None);
        if let Some((cursor, p)) = &shape.cursor {
            inductions.push((cursor.clone(), Val::Ptr(p.clone()), Expr::Int(1)));
        }
        // What the loop's variables hold before it, and which unknowns were
        // made before it: see `last_iteration`.
        let before: HashMap<String, Val> = others
            .iter()
            .filter_map(|x| Some((x.clone(), self.env.get(x)?.clone())))
            .collect();
        let locals_before = self.prog.locals.len();
        let carried_before = self.int_values(&others);
        self.forget(&others, names);
        let heads = self.fresh_values(&carried_before);
        self.facts.clear();
        self.env
            .insert(shape.var.clone(), Val::Int(Expr::Var(v.clone())));
        // Iteration `k` of a loop counting by a constant from `lo`: each
        // induction variable is its start plus `k` steps.
        if let Step::Add(Expr::Int(s @ 1..)) | Step::Sub(Expr::Int(s @ 1..)) = shape.step {
            let dist = match shape.step {
                Step::Add(_) => Expr::sub(Expr::var(&v), shape.lo.clone()),
                _ => Expr::sub(shape.lo.clone(), Expr::var(&v)),
            };
            let k = if s == 1 {
                dist
            } else {
                Expr::bin(Op::Div, dist, Expr::Int(s))
            };
            self.step_inductions(inductions, &k);
            self.step_cycles(cycles, &k);
        }
        self.loop_vars.push(v.clone());
        let last = bound_by_one(&shape).map(|hi| simplify(&Expr::sub(hi, Expr::Int(1))));
        let counted = BreakTarget::Counted(loc, v.clone(), last);
        let target = self.break_targets.last_mut();
        let outer = target.map(|t| std::mem::replace(t, counted));
        let step = match &shape.step {
            Step::Add(e) | Step::Sub(e) | Step::Mul(e) | Step::Div(e) => e,
        };
        // The block's threads take the same values at the same iteration.
        let uniform = [&shape.lo, &shape.bound, step]
            .iter()
            .all(|e| self.block_uniform(e));
        if uniform {
            self.uniform_loops.push(v.clone());
        }
        if let Step::Mul(st) | Step::Div(st) = &shape.step {
            let st = simplify(st);
            if self.power_of_two(&shape.lo) && self.power_of_two(&st) {
                self.note_assumed_powers(&shape.lo);
                self.note_assumed_powers(&st);
                self.powers.insert(v.clone());
            } else {
                self.note_power_candidates(&shape.lo);
            }
        }
        let alike_mark = self.alike.stores_made();
        self.continues.push(Vec::new());
        let r = self.capture(|me| {
            let ((j, rest), b) = me.capture(|me| match shape.rest {
                Some(rest) => {
                    let c = me.cond(&rest)?;
                    let j =
                        me.branches(c.clone(), |me| me.block(body), |_| Ok(Jumps::none()), loc)?;
                    Ok((j, Some(c)))
                }
                None => Ok((me.block(body)?, None)),
            })?;
            me.emit(b);
            Ok((j, rest))
        });
        // Each variable's value at the end of an iteration, over the loop's
        // counter `v`: a number, or a pointer into one array (`out += w`).
        let at_end: Vec<(String, Val)> = others
            .iter()
            .filter_map(|x| match self.env.get(x) {
                Some(Val::Int(e)) => Some((x.clone(), Val::Int(e.clone()))),
                Some(Val::Ptr(p)) if p.alts.is_empty() && p.unaligned.is_none() => {
                    Some((x.clone(), Val::Ptr(p.clone())))
                }
                _ => None,
            })
            .collect();
        self.loop_vars.pop();
        if let (Some(t), Some(outer)) = (self.break_targets.last_mut(), outer) {
            *t = outer;
        }
        if uniform {
            self.uniform_loops.pop();
        }
        let continued = self.continues.pop().unwrap_or_default();
        let ((j, rest), mut b) = r?;
        // The counter is the same for the block's threads at an iteration
        // they reach together when its range is: the range stands for it,
        // in what this loop's variables and inner ones depend on.
        let mut range = BTreeSet::new();
        for e in [&shape.lo, &shape.bound, step] {
            e.free_vars(&mut range);
        }
        if let Some(rest) = &rest {
            range.extend(cond_vars(rest));
        }
        range.remove(&v);
        self.carry(&carried_before, &heads, &continued, &j, range.clone());
        self.counter_stands_for(&v, &range);
        // A thread that breaks out skips the stores of later iterations
        // that the others make.
        let mut brk = cond_vars(&j.brk);
        if uniform {
            brk.remove(&v);
        }
        if !imp::is_uniform(&brk, &self.prog.params) {
            self.alike.spoil_since(alike_mark);
        }
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
                    _ => return self.fallback_counted(s, b, j, &v, uniform, loc),
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
                    _ => return self.fallback_counted(s, b, j, &v, uniform, loc),
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
                } else if let (true, Expr::Int(c), Expr::Int(2)) = (uniform, &lo, simplify(st)) {
                    if *c > 0 && (*c as u64).is_power_of_two() {
                        return Ok(self.exponent_loop(b, j, &v, *c, up, (&l, &h), loc));
                    }
                    return self.fallback_counted(s, b, j, &v, uniform, loc);
                } else {
                    return self.fallback_counted(s, b, j, &v, uniform, loc);
                }
            }
        };
        let mut bound = BTreeSet::from([v.clone()]);
        binders(&stmt, &mut bound);
        self.returns_leave_loop(returns0, &bound);
        self.emit(stmt);
        self.facts.clear();
        let mut all = others;
        all.insert(shape.var.clone());
        self.forget(&all, names);
        self.carry_out(&heads, &j);
        self.last_iteration(&shape, &v, &j, at_end, before, locals_before);
        self.counter_at_exit(&shape, &j);
        // The threads of a block run a loop of block-wide bounds alike, to
        // its end when nothing jumps out: its variable leaves it with one
        // value for the block (`offset` after `for (offset = 1; offset <
        // n; offset <<= 1)`), and barriers under it do not diverge. Inside
        // another loop that value changes between iterations, which
        // traces joining iterations would not see: left thread-local.
        let whole = [&j.ret, &j.brk, &j.cont]
            .iter()
            .all(|c| **c == Cond::Bool(false))
            && j.gotos.is_empty();
        if uniform && whole && self.loop_vars.is_empty() {
            if let Some(Val::Int(Expr::Var(exit))) = self.env.get(&shape.var) {
                self.prog.block_uniform.push(exit.clone());
            }
        }
        Ok(self.after_loop(j))
    }

    /// The counter's value once a loop counting by one has run to its end:
    /// its bound when it ran at all, its start otherwise (`i` after `for (i
    /// = 0; i < n; i++)` is `max(0, n)`, not any number). Only when nothing
    /// leaves the loop earlier and no further condition ends it.
    fn counter_at_exit(&mut self, shape: &Shape, j: &Jumps) {
        let whole = [&j.ret, &j.brk].iter().all(|c| **c == Cond::Bool(false)) && j.gotos.is_empty();
        if !whole || shape.rest.is_some() || shape.cursor.is_some() {
            return;
        }
        let (lo, bound) = (shape.lo.clone(), shape.bound.clone());
        let exit = match (&shape.step, shape.rel) {
            (Step::Add(Expr::Int(1)), Rel::Lt) => Expr::bin(Op::Max, lo, bound),
            (Step::Add(Expr::Int(1)), Rel::Le) => {
                Expr::bin(Op::Max, lo, Expr::add(bound, Expr::Int(1)))
            }
            (Step::Sub(Expr::Int(1)), Rel::Gt) => Expr::bin(Op::Min, lo, bound),
            (Step::Sub(Expr::Int(1)), Rel::Ge) => {
                Expr::bin(Op::Min, lo, Expr::sub(bound, Expr::Int(1)))
            }
            _ => return,
        };
        self.env
            .insert(shape.var.clone(), Val::Int(simplify(&exit)));
    }

    /// The values a loop counting up by one from `lo` while below `hi`
    /// leaves its variables with: each one's value at the end of the last
    /// iteration (`v = hi - 1`) when the loop runs at all, its value before
    /// the loop otherwise (`computed = false; if (in range at i) computed =
    /// true;` in every iteration, read after the loop). Only when nothing
    /// leaves the loop earlier (a `break` at the last iteration only,
    /// `if (i == n - 1) break;`) and the value names no unknown made in or
    /// for the loop, which stands for a different value in each iteration.
    fn last_iteration(
        &mut self,
        shape: &Shape,
        v: &str,
        j: &Jumps,
        at_end: Vec<(String, Val)>,
        before: HashMap<String, Val>,
        locals_before: usize,
    ) {
        if !j.gotos.is_empty() || j.ret != Cond::Bool(false) {
            return;
        }
        let Some(hi) = bound_by_one(shape) else {
            return;
        };
        let last = simplify(&Expr::sub(hi.clone(), Expr::Int(1)));
        if j.brk != Cond::Bool(false) && !breaks_at(&j.brk, v, &last) {
            return;
        }
        let made: HashSet<&String> = self.prog.locals[locals_before..].iter().collect();
        let ran = Cond::cmp(Rel::Lt, shape.lo.clone(), hi);
        for (x, value) in at_end {
            let mut vars = BTreeSet::new();
            match &value {
                Val::Int(e) => e.free_vars(&mut vars),
                Val::Ptr(p) => p.index.iter().for_each(|e| e.free_vars(&mut vars)),
                _ => continue,
            }
            if vars.iter().any(|n| made.contains(n)) {
                continue;
            }
            let Some(start) = before.get(&x).cloned() else {
                continue;
            };
            let end = match value {
                Val::Int(e) => Val::Int(simplify(&e.subst(v, &last))),
                // A pointer walked within the array it started in, by the
                // iteration (`out += w`); not one swapped with another.
                Val::Ptr(mut p)
                    if matches!(&start, Val::Ptr(q) if q.target == p.target && q.alts.is_empty())
                        && vars.contains(v) =>
                {
                    for e in p.index.iter_mut() {
                        *e = simplify(&e.subst(v, &last));
                    }
                    Val::Ptr(p)
                }
                _ => continue,
            };
            self.env.insert(x, join(&ran, end, start));
        }
    }

    /// Returns reached inside a loop kept as a loop (`for (i…) if (used[i]
    /// == 0) return i;` in an inlined helper), from `first` on: their value
    /// and path name the loop's counters, which mean nothing past it, so
    /// each such part is a fresh unknown of the thread.
    fn returns_leave_loop(&mut self, first: usize, bound: &BTreeSet<String>) {
        let Some(mut rets) = self.returns.pop() else {
            return;
        };
        let in_loop = |vars: BTreeSet<String>| vars.iter().any(|v| bound.contains(v));
        let names = |e: &Expr| {
            let mut vars = BTreeSet::new();
            e.free_vars(&mut vars);
            in_loop(vars)
        };
        let names_cond = |c: &Cond| {
            let mut vars = BTreeSet::new();
            c.free_vars(&mut vars);
            in_loop(vars)
        };
        for (path, value) in rets.iter_mut().skip(first) {
            if names_cond(path) {
                *path = Cond::cmp(Rel::Ne, self.local("returned"), Expr::Int(0));
            }
            match value {
                Val::Int(e) if names(e) => *e = self.local("result"),
                Val::Ptr(p) => {
                    for i in p.index.iter_mut().filter(|i| names(i)) {
                        *i = self.local("result");
                    }
                    let alts_named = p
                        .alts
                        .iter()
                        .any(|(c, q)| names_cond(c) || q.index.iter().any(names));
                    if alts_named {
                        *value = Val::Unknown;
                    }
                }
                _ => {}
            }
        }
        self.returns.push(rets);
    }

    /// A loop over a few known values, one copy of the body per value with
    /// the state carried from copy to copy: exact, breaks included.
    pub(super) fn unrolled(
        &mut self,
        shape: Shape,
        values: &[i64],
        body: &[Node],
        loc: Loc,
    ) -> R<Jumps> {
        self.facts.clear();
        let mut left = Cond::Bool(false);
        let mut ret = Cond::Bool(false);
        let mut gotos = Jumps::none();
        for x in values {
            self.env.insert(shape.var.clone(), Val::Int(Expr::Int(*x)));
            if let Some((cursor, p)) = &shape.cursor {
                let moved = Expr::sub(Expr::Int(*x), shape.lo.clone());
                self.step_inductions(
                    vec![(cursor.clone(), Val::Ptr(p.clone()), Expr::Int(1))],
                    &moved,
                );
            }
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

    /// A synchronized loop that doubles (halves) its variable from a
    /// constant power of two `first` while it lies in `lo..hi`: iteration
    /// `e` has the value `first << e` (`first >> e`), one for the block, of
    /// an exponent binder the split substitutes like any loop variable. The
    /// count is an unknown whose last iteration is the last value in range.
    #[allow(clippy::too_many_arguments)]
    fn exponent_loop(
        &mut self,
        b: Stmt,
        j: Jumps,
        v: &str,
        first: i64,
        up: bool,
        (lo, hi): (&Expr, &Expr),
        loc: Loc,
    ) -> Jumps {
        let e = self.name("exponent");
        let count = Expr::var(&self.unknown_param("iterations"));
        let shift = if up { Op::Shl } else { Op::Shr };
        let value = |k: Expr| Expr::bin(shift, Expr::Int(first), k);
        let runs = |k: Expr| {
            let x = value(k);
            Cond::and(
                Cond::cmp(Rel::Le, lo.clone(), x.clone()),
                Cond::cmp(Rel::Lt, x, hi.clone()),
            )
        };
        // Past these many steps the value leaves 64 bits (or reaches 0).
        let steps = if up {
            62 - i64::from(first.trailing_zeros())
        } else {
            i64::from(first.trailing_zeros()) + 1
        };
        let last = Expr::sub(count.clone(), Expr::Int(1));
        for c in [
            Cond::cmp(Rel::Ge, count.clone(), Expr::Int(0)),
            Cond::cmp(Rel::Le, count.clone(), Expr::Int(steps)),
            Cond::or(Cond::cmp(Rel::Eq, count.clone(), Expr::Int(0)), runs(last)),
            Cond::not(runs(count.clone())),
        ] {
            self.prog.assumes.push(imp::simplify_cond(&c));
        }
        self.emit(Stmt::For {
            var: e.clone(),
            lo: Expr::Int(0),
            hi: count,
            body: Box::new(b.subst(v, &value(Expr::var(&e)))),
            loc,
        });
        self.facts.clear();
        self.after_loop(j)
    }

    /// A synchronized loop we cannot count exactly: an unknown number of
    /// iterations, and the loop variable a fresh unknown.
    pub(super) fn fallback_counted(
        &mut self,
        s: &Node,
        b: Stmt,
        j: Jumps,
        v: &str,
        uniform: bool,
        loc: Loc,
    ) -> R<Jumps> {
        let var = self.name("iter");
        let bound = self.unknown_param("iterations");
        let unknown = self.local(v);
        // Every iteration takes one value for the block when the bounds
        // and step are the block's (`for (size = 2; size < n; size <<= 1)`
        // around barriers): barriers under it do not diverge. Traces joining
        // two iterations may see two values, so each thread keeps its own.
        if let (true, Expr::Var(name)) = (uniform, &unknown) {
            self.prog.control_uniform.push(name.clone());
        }
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

    pub(super) fn switch_stmt(&mut self, s: &Node) -> R<Jumps> {
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
            // A case that ends in `break` or `return` never falls through,
            // whatever its conditions say.
            let ends = stmts
                .last()
                .is_some_and(|l| matches!(l.kind(), K::BREAK | K::RETURN));
            running = if ends {
                Cond::Bool(false)
            } else {
                Cond::and(runs, Cond::not(j.any()))
            };
            // Falling through repeats the conditions of every case before:
            // past a size, whether it does is an unknown.
            if cond_too_big(&running) {
                let falls = self.local("falls_through");
                running = Cond::cmp(Rel::Ne, falls, Expr::Int(0));
            }
            out = self.bounded(out.or(Jumps {
                brk: Cond::Bool(false),
                ..j
            }));
        }
        Ok(out)
    }
}

/// The value that is `a` where `c` holds and `b` elsewhere: a conditional
/// integer, or a pointer into one array at a conditional place.
pub(super) fn join(c: &Cond, a: Val, b: Val) -> Val {
    if a == b || *c == Cond::Bool(true) {
        return a;
    }
    if *c == Cond::Bool(false) {
        return b;
    }
    match (at_first_cell(a), at_first_cell(b)) {
        // Merged values share their past: sizes would double with every
        // conditional update.
        (Val::Int(a), Val::Int(b)) if too_big(&a) || too_big(&b) => Val::Unknown,
        (Val::Int(a), Val::Int(b)) => Val::Int(simplify(&Expr::Ite(
            Box::new(c.clone()),
            Box::new(a),
            Box::new(b),
        ))),
        // A null pointer is never dereferenced: wherever the value reaches
        // memory, it is the other pointer (`c ? &a[i] : 0`).
        (Val::Ptr(p), Val::Int(Expr::Int(0))) | (Val::Int(Expr::Int(0)), Val::Ptr(p)) => {
            Val::Ptr(p)
        }
        (Val::Ptr(a), Val::Ptr(b))
            if a.target == b.target
                && (a.cell, a.elem) == (b.cell, b.elem)
                && a.index.len() == b.index.len()
                && a.alts.is_empty()
                && b.alts.is_empty()
                && !a.index.iter().chain(&b.index).any(too_big) =>
        {
            let ite = |x: Expr, y: Expr| {
                simplify(&Expr::Ite(Box::new(c.clone()), Box::new(x), Box::new(y)))
            };
            let unaligned = match (a.unaligned, b.unaligned) {
                (Some((x, xb)), Some((y, yb))) => Some((ite(x, y), ite(xb, yb))),
                _ => None,
            };
            Val::Ptr(Ptr {
                cell: a.cell,
                elem: a.elem,
                rounded: a.rounded || b.rounded,
                unaligned,
                part: match (a.part, b.part) {
                    (0, q) | (q, 0) => q,
                    (p, q) => p.min(q),
                },
                alts: Vec::new(),
                address: a.address && b.address,
                target: a.target,
                index: a
                    .index
                    .into_iter()
                    .zip(b.index)
                    .map(|(x, y)| {
                        simplify(&Expr::Ite(Box::new(c.clone()), Box::new(x), Box::new(y)))
                    })
                    .collect(),
            })
        }
        // Into different arrays (`src = c ? in1 : in2`): both, each under
        // its condition.
        (Val::Ptr(a), Val::Ptr(b)) => Ptr::either(c, a, b).map_or(Val::Unknown, Val::Ptr),
        _ => Val::Unknown,
    }
}

/// Whether a loop condition reads memory that other threads may be changing
/// while the loop spins: an atomic (`atomicCAS(&lock, 0, 1) != 0`) or a
/// `volatile` location (`while (*flag == 0)` through `volatile int *`).
fn waits_on_memory(cond: &Node) -> bool {
    let n = strip(*cond);
    let atomic = n.kind() == K::CALL
        && n.referenced()
            .is_some_and(|f| super::call::atomic_mode(&f.spelling()).is_some());
    let volatile_read = matches!(
        n.kind(),
        K::DECL_REF | K::MEMBER_REF | K::ARRAY_SUBSCRIPT | K::UNARY
    ) && n.ty().spelling().starts_with("volatile ");
    atomic || volatile_read || n.children().iter().any(waits_on_memory)
}

/// The variables `s`'s loops bind.
fn binders(s: &Stmt, out: &mut BTreeSet<String>) {
    match s {
        Stmt::For { var, body, .. } => {
            out.insert(var.clone());
            binders(body, out);
        }
        Stmt::If { then, els, .. } => {
            binders(then, out);
            binders(els, out);
        }
        Stmt::Seq(v) => v.iter().for_each(|s| binders(s, out)),
        Stmt::Access { .. } | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
    }
}
