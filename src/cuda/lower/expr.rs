//! Expressions: integer arithmetic kept symbolic, conditions, built-in
//! variables (`threadIdx.x` …) and operators on values.

use super::*;

pub(super) fn as_cond(e: &Expr) -> Cond {
    match e {
        Expr::Ite(c, a, b) if **a == Expr::Int(1) && **b == Expr::Int(0) => (**c).clone(),
        // A flag cleared under conditions (`bool valid = true; if (x >=
        // w) valid = false; … if (valid)`) is the conjunction of their
        // negations, which the solver's facts about guards can read.
        Expr::Ite(c, a, b) if flag(a) && flag(b) => Cond::or(
            Cond::and((**c).clone(), as_cond(a)),
            Cond::and(Cond::not((**c).clone()), as_cond(b)),
        ),
        Expr::Int(v) => Cond::Bool(*v != 0),
        _ => Cond::cmp(Rel::Ne, e.clone(), Expr::Int(0)),
    }
}

/// Whether `e` is a constant or a choice among constants.
fn flag(e: &Expr) -> bool {
    match e {
        Expr::Int(_) => true,
        Expr::Ite(_, a, b) => flag(a) && flag(b),
        _ => false,
    }
}

pub(super) fn of_cond(c: Cond) -> Expr {
    match c {
        Cond::Bool(b) => Expr::Int(b as i64),
        c => Expr::Ite(Box::new(c), Box::new(Expr::Int(1)), Box::new(Expr::Int(0))),
    }
}

/// The relation a comparison operator (`op::LT` …) states.
pub(super) fn relation(o: i32) -> Option<Rel> {
    Some(match o {
        op::LT => Rel::Lt,
        op::LE => Rel::Le,
        op::GT => Rel::Gt,
        op::GE => Rel::Ge,
        op::EQ => Rel::Eq,
        op::NE => Rel::Ne,
        _ => return None,
    })
}

/// Expressions with more nodes than this become unknowns: indexes and
/// guards of real kernels are far smaller, and larger terms only cost the
/// solver time.
pub(super) const MAX_EXPR_NODES: usize = 128;

/// Whether `v` is the null pointer (`nullptr`, `NULL`, `0`).
fn is_null(v: &Val) -> bool {
    matches!(v, Val::Int(e) if simplify(e) == Expr::Int(0))
}

/// Whether `e` has more than [`MAX_EXPR_NODES`] nodes; stops counting there.
pub(super) fn too_big(e: &Expr) -> bool {
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

/// A name for the unknown value of an expression, after what it reads.
pub(super) fn hint_of(n: &Node) -> String {
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

pub(super) fn has_effects(n: &Node) -> bool {
    let k = n.kind();
    if super::call::is_group_query(n) {
        return false;
    }
    if super::call::is_pure_integer_call(n) {
        return exprs(n).iter().any(has_effects);
    }
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

impl Lower {
    /// The cell `rhs` copies, when it is nothing but one read of a whole
    /// cell other threads can see (`in[k]`, `*p`, `a[i].v` of a one-field
    /// struct, through casts): a function of anything else (`in[k] * x`)
    /// may differ between threads copying one cell, and so may two fields
    /// of one cell (`a[i].x`, `a[i].y`), which are accesses to the cell.
    pub(super) fn copied_cell_of(&mut self, rhs: &Node) -> Option<Value> {
        let n = strip(*rhs);
        let k = n.kind();
        let read = k == K::ARRAY_SUBSCRIPT
            || k == K::MEMBER_REF
            || (k == K::UNARY && n.unop() == op::DEREF);
        let (at, array, index, bytes) = self.last_cell.take()?;
        // A cell of a size no instantiation gives (a template's open `T`)
        // is read whole by an element of the pointer's own type: the views
        // of such an array all have one type, or the kernel is not analysed.
        let whole = match self.layouts.size_of(n.ty()) {
            Some(size) => size == bytes,
            None => bytes == 0 && k != K::MEMBER_REF,
        };
        (read && whole && at == loc_of(&n)).then_some(Value::Read { array, index })
    }

    /// `({ s1; …; e; })`, GNU C's statement expression (the usual form of
    /// a `max` macro that evaluates its arguments once): the statements
    /// run in order, and the value is the last one's.
    fn statement_expression(&mut self, n: &Node) -> R<Val> {
        let Some(body) = n.children().into_iter().find(|c| c.kind() == K::COMPOUND) else {
            return unsupported(n, "a statement expression clang does not expose");
        };
        let items = body.children();
        let Some((last, rest)) = items.split_last() else {
            return Ok(Val::Unknown);
        };
        let jumps = self.block(rest)?;
        if jumps.any() != Cond::Bool(false) {
            return unsupported(n, "a jump out of a statement expression");
        }
        if last.is_expression() {
            return self.rvalue(last);
        }
        let jumps = self.block(std::slice::from_ref(last))?;
        if jumps.any() != Cond::Bool(false) {
            return unsupported(n, "a jump out of a statement expression");
        }
        Ok(Val::Unknown)
    }

    /// Whether the pointer `p` is set, when it points into what a pointer
    /// parameter of the kernel points to (`if (bias)`, `mask != nullptr`):
    /// one value for the whole launch, the same at every test. A pointer
    /// read from memory may be null in one cell and not in another.
    fn null_test(&mut self, p: &Ptr) -> Option<Expr> {
        let Target::Shared(a) = &p.target else {
            return None;
        };
        if !p.alts.is_empty() || p.address {
            return None;
        }
        let set = match self.param_arrays.get(a)? {
            Some(v) => v.clone(),
            None => {
                let v = self.unknown_param(&format!("{a}.set"));
                self.param_arrays.insert(a.clone(), Some(v.clone()));
                v
            }
        };
        Some(Expr::Var(set))
    }

    pub(super) fn cond(&mut self, n: &Node) -> R<Cond> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(n, "code nested too deeply")
        } else {
            self.cond_at(n)
        };
        self.depth -= 1;
        r
    }

    pub(super) fn cond_at(&mut self, n: &Node) -> R<Cond> {
        let n = strip(*n);
        let k = n.kind();
        if k == K::BINARY {
            let ch = exprs(&n);
            if ch.len() == 2 {
                if let Some(rel) = relation(n.binop()) {
                    let (a, b) = (self.rvalue(&ch[0])?, self.rvalue(&ch[1])?);
                    return Ok(imp::simplify_cond(&match (a, b) {
                        (Val::Int(a), Val::Int(b)) if !too_big(&a) && !too_big(&b) => {
                            Cond::cmp(rel, simplify(&a), simplify(&b))
                        }
                        (Val::Ptr(p), o) | (o, Val::Ptr(p))
                            if matches!(rel, Rel::Eq | Rel::Ne) && is_null(&o) =>
                        {
                            match self.null_test(&p) {
                                Some(set) => Cond::cmp(rel, set, Expr::Int(0)),
                                None => {
                                    let e = self.local(&hint_of(&n));
                                    Cond::cmp(rel, e, Expr::Int(0))
                                }
                            }
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
                        // Short-circuit: a settled left side leaves the
                        // right one unevaluated.
                        if imp::simplify_cond(&a) == Cond::Bool(false) {
                            return Ok(Cond::Bool(false));
                        }
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
                        if imp::simplify_cond(&a) == Cond::Bool(true) {
                            return Ok(Cond::Bool(true));
                        }
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
            // A pointer in a condition: a null check.
            Val::Ptr(p) => {
                let set = match self.null_test(&p) {
                    Some(set) => set,
                    None => self.local(&hint_of(&n)),
                };
                as_cond(&set)
            }
            Val::Unknown => {
                let e = self.local(&hint_of(&n));
                as_cond(&e)
            }
            // A flag the block shares (`if (isLast)` on a `__shared__ bool`
            // thread 0 set before a barrier) stays one value for the block.
            v => as_cond(&self.materialize(v, &hint_of(&n))),
        })
    }

    pub(super) fn rvalue(&mut self, n: &Node) -> R<Val> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            unsupported(n, "code nested too deeply")
        } else {
            self.rvalue_at(n)
        };
        self.depth -= 1;
        r
    }

    pub(super) fn rvalue_at(&mut self, n: &Node) -> R<Val> {
        let k = n.kind();
        if k == K::PAREN
            || (k == K::UNEXPOSED && exprs(n).len() == 1)
            || k == K::C_CAST
            || k == K::STATIC_CAST
            || k == K::FUNCTIONAL_CAST
            || k == K::REINTERPRET_CAST
            || k == K::CONST_CAST
            || (k == K::CALL && implicit_copy(n))
        {
            let inner = exprs(n);
            let Some(inner) = inner.last() else {
                return Ok(Val::Unknown);
            };
            let v = self.rvalue(inner)?;
            // A cast to an integer of a non-integer value stays unknown.
            return Ok(match v {
                Val::Ptr(p) if p.address && n.ty().is_integral() => Val::Ptr(p),
                Val::Ptr(p)
                    if !n.ty().is_pointer() && !n.ty().is_array() && !n.ty().is_dependent() =>
                {
                    match self.address_of(&p) {
                        Some(a) if n.ty().is_integral() => Val::Int(a),
                        _ => Val::Unknown,
                    }
                }
                Val::Ptr(p) => Val::Ptr(p.viewed_as(n.ty(), &self.layouts)),
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
            // `sizeof(T)` (or `alignof`) where the instantiation says what
            // `T` is.
            let alignof = n
                .tokens()
                .iter()
                .any(|(t, _)| t.contains("alignof") || t.contains("_Alignof"));
            let bytes: Vec<Option<u64>> = n
                .children()
                .iter()
                .map(|c| match alignof {
                    true => self.layouts.align_of(c.ty()),
                    false => self.layouts.size_of(c.ty()),
                })
                .collect();
            if let [Some(bytes)] = bytes[..] {
                return Ok(Val::Int(Expr::Int(bytes as i64)));
            }
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
        // The null pointer is the number 0: a test against it is decided
        // where the pointer is known to be null (a helper called with
        // `nullptr`), and a join with it is the other pointer.
        if k == K::NULLPTR || k == K::GNU_NULL {
            return Ok(Val::Int(Expr::Int(0)));
        }
        // `sizeof...(Ts)` of the kernel's own pack, which the instantiation
        // fixes (`if constexpr (sizeof...(Ts) > 0)` picks a branch).
        if k == K::SIZE_OF_PACK {
            let toks = n.tokens();
            let size = toks
                .iter()
                .rev()
                .find_map(|(t, _)| self.pack_sizes.get(t).copied());
            return Ok(size.map_or(Val::Unknown, |s| Val::Int(Expr::Int(s))));
        }
        if k == K::FLOAT_LIT {
            return Ok(n
                .eval_float()
                .map_or(Val::Uniform, |f| Val::Float(f.to_bits())));
        }
        if k == K::STRING_LIT {
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
                    if dk == K::FUNCTION || dk == K::FUNCTION_TEMPLATE {
                        return Ok(Val::Func {
                            decl: d.handle(),
                            values: Vec::new(),
                        });
                    }
                    // A function template named in a template pattern
                    // (`return dequantize<T, ne>;`): the one defined.
                    if dk == K::OVERLOADED_REF {
                        if let [f] = super::call::defined_overloads(&d).as_slice() {
                            let values = self.template_values(f, n)?;
                            return Ok(Val::Func {
                                decl: f.handle(),
                                values,
                            });
                        }
                    }
                    if dk == K::METHOD {
                        return Ok(Val::Unknown);
                    }
                }
            }
            if super::memory::has_array_type(n) {
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
            return Ok(match self.choice(n, |me, e| me.rvalue(e))? {
                None => Val::Unknown,
                Some(Chosen::One(v)) => v,
                Some(Chosen::Both(c, a, b)) => self.join_shared(&c, a, b, "choice"),
            });
        }
        if k == K::CALL {
            return self.call(n);
        }
        if k == K::LAMBDA {
            return Ok(Val::Unknown);
        }
        if k == K::STMT_EXPR {
            return self.statement_expression(&n);
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

    /// `c ? x : y` with each operand evaluated by `each`, its accesses
    /// under its branch: only the live one when the condition is settled.
    /// `None` for a conditional clang does not show whole.
    pub(super) fn choice<T>(
        &mut self,
        n: &Node,
        each: impl Fn(&mut Self, &Node) -> R<T>,
    ) -> R<Option<Chosen<T>>> {
        let ch = exprs(n);
        if ch.len() != 3 {
            return Ok(None);
        }
        let c = self.cond(&ch[0])?;
        match imp::simplify_cond(&c) {
            Cond::Bool(true) => return each(self, &ch[1]).map(|v| Some(Chosen::One(v))),
            Cond::Bool(false) => return each(self, &ch[2]).map(|v| Some(Chosen::One(v))),
            _ => {}
        }
        let (a, ba) = self.capture(|me| each(me, &ch[1]))?;
        let (b, bb) = self.capture(|me| each(me, &ch[2]))?;
        self.emit_if(c.clone(), ba, bb, loc_of(n));
        Ok(Some(Chosen::Both(c, a, b)))
    }

    /// `threadIdx.x` and friends, with the launch's known values.
    pub(super) fn builtin(&self, n: &Node) -> Option<Expr> {
        let e = self.builtin_var(n)?;
        let known = self
            .launch
            .iter()
            .fold(e, |e, (name, value)| e.subst(name, &Expr::Int(*value)));
        Some(simplify(&known))
    }

    /// Notes that the source names `v` when it is a thread index or block
    /// size along y or z.
    fn name_axis(&self, v: &str) {
        for d in 1..3 {
            if v == builtin::TID[d] || v == builtin::BLOCK_DIM[d] {
                self.named_axes.set(self.named_axes.get() | 1 << d);
            }
        }
    }

    fn builtin_var(&self, n: &Node) -> Option<Expr> {
        if n.kind() != K::MEMBER_REF {
            return None;
        }
        let base = strip(*exprs(n).first()?);
        if let Some(e) = super::call::group_vector_axis(&base, &n.spelling()) {
            if let Expr::Var(v) = &e {
                self.name_axis(v);
            }
            return Some(e);
        }
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
        if !(ty.contains("__cuda_builtin_") || b.pos().file.starts_with(crate::cuda::prelude::DIR))
        {
            return None;
        }
        let name = match base.spelling().as_str() {
            "threadIdx" => builtin::TID[d],
            "blockIdx" => builtin::BID[d],
            "blockDim" => builtin::BLOCK_DIM[d],
            "gridDim" => builtin::GRID_DIM[d],
            _ => return None,
        };
        self.name_axis(name);
        Some(Expr::var(name))
    }

    pub(super) fn binary(&mut self, n: &Node) -> R<Val> {
        let v = self.binary_value(n)?;
        // `data + 2 * c` steps in elements of the pointer's type, which an
        // access through a cast of the result must agree with.
        if let Val::Ptr(p) = &v {
            if matches!(n.binop(), op::ADD | op::SUB) || n.kind() == K::COMPOUND_ASSIGN {
                // In a template the sum's type may be dependent; the
                // pointer operand's is `T *`.
                let ty = std::iter::once(n.ty())
                    .chain(exprs(n).iter().map(|c| strip(*c).ty()))
                    .find(|t| t.is_pointer());
                if let Some(ty) = ty {
                    self.note_view(ty, p);
                }
            }
        }
        Ok(v)
    }

    fn binary_value(&mut self, n: &Node) -> R<Val> {
        let ch = exprs(n);
        if ch.len() != 2 {
            return Ok(Val::Unknown);
        }
        let o = n.binop();
        let loc = loc_of(n);
        if o == op::ASSIGN || n.kind() == K::COMPOUND_ASSIGN {
            let lv = self.target(&ch[0])?;
            let hint = match &lv {
                LVal::Var(_) => strip(ch[0]).spelling(),
                _ => "v".into(),
            };
            let rhs = self.rvalue(&ch[1])?;
            if o == op::ASSIGN && rhs == Val::Unknown {
                self.copied_cell = self.copied_cell_of(&ch[1]);
            }
            let v = if o == op::ASSIGN {
                rhs
            } else {
                let cur = match &lv {
                    LVal::Var(v) => self.env.get(v).cloned().unwrap_or(Val::Unknown),
                    LVal::Mem(p) => self.read(p, loc),
                    LVal::Unknown => Val::Unknown,
                };
                self.arith_typed(n, compound_base(o), cur, rhs)
            };
            let v = match (&lv, v) {
                (LVal::Var(_), Val::Unknown) if strip(ch[0]).ty().is_integral() => {
                    Val::Int(self.local(&hint))
                }
                (_, v) => v,
            };
            self.store(&lv, v.clone(), loc);
            self.copied_cell = None;
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
                Ok(self.arith_typed(n, o, a, b))
            }
        }
    }

    /// `arith` for the operator at `n`, which computes in floating point
    /// when an operand is floating. There a value that is not an integer
    /// (a constant, `__constant__ float`) is no integer parameter: `0.5f *
    /// tid` as `u * tid` would leave out `tid / 2`. Integers in floating
    /// arithmetic keep their exact value. With a value of the block
    /// (`4 * blockIdx.y - ceilf(cutoff)`) the parameter stays: the result
    /// is then the same in every thread of a block, which is what barriers
    /// under it need.
    fn arith_typed(&mut self, n: &Node, o: i32, a: Val, b: Val) -> Val {
        if let (op::SHL | op::SHR, Val::Int(amount)) = (o, &b) {
            self.shift_in_range(n, amount);
        }
        let floating = n.ty().is_floating() || exprs(n).iter().any(|c| c.ty().is_floating());
        let fractional = |v: &Val| matches!(v, Val::Uniform | Val::Float(_));
        if floating && (fractional(&a) || fractional(&b)) {
            if self.grid_uniform(&a) && self.grid_uniform(&b) {
                return Val::Uniform;
            }
            let of_block = |me: &Self, v: &Val| match v {
                Val::Int(e) => me.block_uniform(e),
                v => fractional(v),
            };
            if !(of_block(self, &a) && of_block(self, &b)) {
                return Val::Unknown;
            }
        }
        if let (op::DIV | op::REM, false, Val::Int(x), Val::Int(y)) =
            (o, n.ty().is_unsigned(), &a, &b)
        {
            if self.offset_below_zero(x) {
                return self.truncated(o, x.clone(), y.clone());
            }
        }
        self.arith(o, a, b)
    }

    /// Whether `x` is a non-negative value less a constant (`2 * t - 1`,
    /// `tid - RADIUS`): a halo's offset, negative for the first threads.
    /// Other dividends keep the protocol's division, which the rewriting of
    /// digits needs: `i - i / T * T` stays a remainder.
    fn offset_below_zero(&self, x: &Expr) -> bool {
        fn of_ids(e: &Expr) -> bool {
            match e {
                Expr::Int(c) => *c >= 0,
                Expr::Var(v) => {
                    crate::protocol::builtin::is_thread_id(v) || crate::protocol::builtin::is_dim(v)
                }
                Expr::Bin(Op::Add | Op::Mul, a, b) => of_ids(a) && of_ids(b),
                _ => false,
            }
        }
        match simplify(x) {
            Expr::Bin(Op::Sub, a, c) => matches!(*c, Expr::Int(1..)) && of_ids(&a),
            _ => false,
        }
    }

    /// C's `x / y` and `x % y` on a signed `x` that may be negative: they
    /// truncate toward zero, where the protocol's division floors (for a
    /// positive divisor). `-1 / 2` is 0, not -1, so `(2 * t - 1) / 2` is 0
    /// for threads 0 and 1 alike. Below zero, the quotient and remainder of
    /// `-x`, negated (and `x % 0 = x`, `x / 0 = 0` still).
    fn truncated(&mut self, o: i32, x: Expr, y: Expr) -> Val {
        let bop = if o == op::DIV { Op::Div } else { Op::Mod };
        if too_big(&x) || too_big(&y) {
            return Val::Unknown;
        }
        let below = Expr::sub(
            Expr::Int(0),
            Expr::bin(bop, Expr::sub(Expr::Int(0), x.clone()), y.clone()),
        );
        Val::Int(simplify(&Expr::Ite(
            Box::new(Cond::cmp(Rel::Ge, x.clone(), Expr::Int(0))),
            Box::new(Expr::bin(bop, x, y)),
            Box::new(below),
        )))
    }

    pub(super) fn arith(&mut self, o: i32, a: Val, b: Val) -> Val {
        let int = |me: &mut Self, v: Val| match v {
            Val::Stored(..) => Val::Int(me.materialize(v, "stored")),
            v => v,
        };
        // Outside floating arithmetic, a floating constant converted to an
        // integer is one integer for every thread.
        let uniform = |v: Val| match v {
            Val::Float(_) => Val::Uniform,
            v => v,
        };
        let (a, b) = (int(self, uniform(a)), int(self, uniform(b)));
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
            (Val::Int(a), Val::Int(b)) if bop == Op::BitAnd => {
                let (a, b) = (simplify(&a), simplify(&b));
                let e = match self
                    .masked_by_power(&a, &b)
                    .or_else(|| self.masked_by_power(&b, &a))
                {
                    Some((e, m)) => {
                        self.note_assumed_powers(&m);
                        e
                    }
                    None => {
                        self.note_power_candidates(&a);
                        self.note_power_candidates(&b);
                        Expr::bin(bop, a, b)
                    }
                };
                Val::Int(simplify(&e))
            }
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

    /// `x & m` without bitwise arithmetic when `m` is a power of two `p`
    /// (or 0) or one less: `x / p % 2 * p` and `x % p`, for every `x` in
    /// two's complement (and for `p = 0` under `x / 0 = 0`, `x % 0 = x`).
    /// With the power of two it took.
    fn masked_by_power(&self, x: &Expr, m: &Expr) -> Option<(Expr, Expr)> {
        if matches!(m, Expr::Int(_)) {
            return None;
        }
        if self.power_of_two(m) {
            let bit = Expr::bin(
                Op::Mod,
                Expr::bin(Op::Div, x.clone(), m.clone()),
                Expr::Int(2),
            );
            return Some((Expr::bin(Op::Mul, bit, m.clone()), m.clone()));
        }
        let p = simplify(&Expr::add(m.clone(), Expr::Int(1)));
        self.power_of_two(&p)
            .then(|| (Expr::bin(Op::Mod, x.clone(), p.clone()), p))
    }

    /// A shift by a parameter (`blockIdx.x << log2N`) that every thread
    /// runs: shifting by a negative amount or by the width or more is
    /// undefined, so a program that runs it has `0 <= log2N < 32`. Only
    /// where nothing guards it: a shift under `if (log2N < 32)` says
    /// nothing of the other branch.
    fn shift_in_range(&mut self, n: &Node, amount: &Expr) {
        if matches!(amount, Expr::Int(_)) || !self.path.is_empty() || !self.loop_vars.is_empty() {
            return;
        }
        let mut vars = BTreeSet::new();
        amount.free_vars(&mut vars);
        if !vars.iter().all(|v| self.int_param(v)) {
            return;
        }
        let Some(bits) = self.layouts.size_of(n.ty()).map(|b| b as i64 * 8) else {
            return;
        };
        let c = Cond::and(
            Cond::cmp(Rel::Ge, amount.clone(), Expr::Int(0)),
            Cond::cmp(Rel::Lt, amount.clone(), Expr::Int(bits)),
        );
        if !self.prog.assumes.contains(&c) {
            self.prog.assumes.push(c);
        }
    }

    /// Whether `v` is an integer parameter of the kernel.
    fn int_param(&self, v: &str) -> bool {
        self.prog.args.iter().flatten().any(|a| a == v)
    }

    /// The integer parameters of the kernel that `e` mentions.
    fn int_params_in(&self, e: &Expr) -> Vec<String> {
        let mut vars = BTreeSet::new();
        e.free_vars(&mut vars);
        vars.into_iter().filter(|v| self.int_param(v)).collect()
    }

    /// The parameters a power of two `e` took to be powers of two under
    /// `Lower::pow2_params`.
    pub(super) fn note_assumed_powers(&mut self, e: &Expr) {
        if !self.pow2_params {
            return;
        }
        let assumed = self.int_params_in(e);
        let assumed = assumed.into_iter().filter(|v| !self.powers.contains(v));
        let assumed: Vec<String> = assumed.collect();
        self.powers_assumed.extend(assumed);
    }

    /// A mask or a loop start over `e` that is not a power of two would be
    /// one if a parameter in it were.
    pub(super) fn note_power_candidates(&mut self, e: &Expr) {
        if !self.int_params_in(e).is_empty() {
            self.power_candidates = true;
        }
    }

    /// Whether `e` is a power of two or 0 wherever it is lowered now:
    /// constants, variables of loops that double or halve such a value
    /// (`Lower::powers`), and their products, quotients and shifts.
    pub(super) fn power_of_two(&self, e: &Expr) -> bool {
        match e {
            Expr::Int(c) => *c == 0 || (*c > 0 && (*c as u64).is_power_of_two()),
            Expr::Var(v) => self.powers.contains(v) || (self.pow2_params && self.int_param(v)),
            Expr::Bin(Op::Mul, a, b) => self.power_of_two(a) && self.power_of_two(b),
            Expr::Bin(Op::Div, a, b) => self.power_of_two(a) && self.power_of_two(b),
            // Shifts by a negative amount or past the width are undefined.
            Expr::Bin(Op::Shl | Op::Shr, a, _) => self.power_of_two(a),
            _ => false,
        }
    }

    pub(super) fn unary(&mut self, n: &Node) -> R<Val> {
        let Some(inner) = exprs(n).into_iter().next() else {
            return Ok(Val::Unknown);
        };
        let o = n.unop();
        let loc = loc_of(n);
        match o {
            op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC => {
                let lv = self.target(&inner)?;
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
                if let Val::Float(f) = v {
                    return Ok(Val::Float((-f64::from_bits(f)).to_bits()));
                }
                Ok(self.arith_typed(n, op::SUB, Val::Int(Expr::Int(0)), v))
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
}
