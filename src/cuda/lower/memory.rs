//! Memory: pointers (arrays, the cell they reach, casts that view cells
//! in other sizes), reads and writes of cells with what is known of their
//! values, pointers loaded from memory, and `memcpy`-like byte ranges.

use super::*;

/// Whether a variable of type `t` is `const`, or an array of `const`
/// elements (`const int[3]`, whose element type libclang gives without
/// the qualifier); not an array of pointers to `const` (`const float
/// *[4]`), whose cells may be written.
fn const_elements(t: &Ty) -> bool {
    let s = t.spelling();
    t.is_const_qualified()
        || (t.is_array() && !s.contains('*') && s.split(['[', ' ']).any(|w| w == "const"))
}

/// The most cells a read-only table may have for its reads to be its
/// values (`Lower::table_value`).
const MAX_TABLE: usize = 16;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Target {
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
pub(super) struct Ptr {
    pub(super) target: Target,
    pub(super) index: Vec<Expr>,
    /// Bytes of one cell of the array, and of one element as the pointer
    /// sees it now (a cast to `uint4 *` over a `float` array: 4 and 16);
    /// 0 when unknown, which leaves indexes unscaled.
    pub(super) cell: u64,
    pub(super) elem: u64,
    /// Moved by a number of bytes a cell may not divide (`(char *)p + r *
    /// pitch`): the last index is rounded down to the cell holding that
    /// byte. That is exact once the pointer is viewed as a type whose
    /// alignment is whole cells (`(float *)` over `float`), since CUDA
    /// requires every access to be aligned; an access while it is still
    /// rounded reaches a cell of the array drfscan does not know.
    pub(super) rounded: bool,
    /// While rounded: the last index before the moves by bytes, and the
    /// bytes moved since, so that further moves add up before rounding
    /// (`(char *)x + i * nb1 + j * nb0`).
    pub(super) unaligned: Option<(Expr, Expr)>,
    /// The narrowest part of a cell a move by parts counted in (4 for
    /// `(float *)p + 1` over `float2` cells); 0 when none did.
    pub(super) part: u64,
    /// Other arrays the pointer may be in (`p = c ? a : b`): the first
    /// whose condition holds, else this one. Each access through it is one
    /// access per alternative, under its condition.
    pub(super) alts: Vec<(Cond, Ptr)>,
    /// A shared address held as a number (`__cvta_generic_to_shared`), for
    /// inline PTX's memory operands: it stays a pointer through casts to
    /// integers, counting bytes.
    pub(super) address: bool,
}

/// More alternatives than this make a pointer unknown.
pub(super) const MAX_ALTS: usize = 4;

/// A pointer without an offset (`p = a`) as one at offset 0, which is what
/// arithmetic on it makes it ([`Ptr::advance`]), so that it merges with an
/// offset one (`p = a + n * i`) at a join.
pub(super) fn at_first_cell(v: Val) -> Val {
    match v {
        Val::Ptr(mut p) => {
            p.at_cell();
            Val::Ptr(p)
        }
        v => v,
    }
}

/// `e / d` when every term of `e` is a multiple of `d` (`4 * i + 8` by 4 is
/// `i + 2`); `None` otherwise.
pub(super) fn exact_quotient(e: &Expr, d: i64) -> Option<Expr> {
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

/// The variable template a name in a template pattern refers to
/// (`mask<T>`), which libclang exposes as an overload set of one
/// unexposed declaration.
pub(super) fn variable_template<'tu>(d: &Node<'tu>) -> Option<Node<'tu>> {
    if d.kind() != K::OVERLOADED_REF {
        return None;
    }
    match d.overloaded_decls().as_slice() {
        [t] if t.kind() == K::UNEXPOSED_DECL => Some(*t),
        _ => None,
    }
}

/// The type of the cells an array variable or pointer reaches: a
/// pointer's pointee, an array's innermost element.
pub(super) fn cell_type(ty: Ty) -> Ty {
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
    /// The pointer seen as bytes (`char *`): arithmetic counts bytes.
    pub(super) fn in_bytes(mut self) -> Ptr {
        self.alts = std::mem::take(&mut self.alts)
            .into_iter()
            .map(|(c, q)| (c, q.in_bytes()))
            .collect();
        if self.cell != 0 {
            self.elem = 1;
        }
        self.address = true;
        self
    }

    /// The cell it points at, one index per dimension (a scalar is cell 0).
    pub(super) fn cell_index(&self) -> Vec<Expr> {
        if self.index.is_empty() {
            vec![Expr::Int(0)]
        } else {
            self.index.iter().map(simplify).collect()
        }
    }

    /// Whether it views whole cells of its array, not parts or several.
    pub(super) fn whole_cell(&self) -> bool {
        self.cell > 0 && self.elem == self.cell && self.part == 0 && !self.rounded
    }

    pub(super) fn new(target: Target, index: Vec<Expr>) -> Ptr {
        Ptr {
            target,
            index,
            cell: 0,
            elem: 0,
            rounded: false,
            unaligned: None,
            part: 0,
            alts: Vec::new(),
            address: false,
        }
    }

    /// Of an array whose cells are values of `ty`.
    pub(super) fn of_cells(target: Target, index: Vec<Expr>, size: u64) -> Ptr {
        Ptr {
            target,
            index,
            cell: size,
            elem: size,
            rounded: false,
            unaligned: None,
            part: 0,
            alts: Vec::new(),
            address: false,
        }
    }

    /// The pointer with its cells' size forgotten: where the element type
    /// is one the template leaves open.
    pub(super) fn of_open_cells(mut self) -> Ptr {
        self.alts = std::mem::take(&mut self.alts)
            .into_iter()
            .map(|(c, q)| (c, q.of_open_cells()))
            .collect();
        self.cell = 0;
        self.elem = 0;
        self
    }

    /// The pointer seen as `ty` (a pointer type): a cast changes the size of
    /// the elements that arithmetic and subscripts count in.
    pub(super) fn viewed_as(mut self, ty: Ty, layouts: &Layouts) -> Ptr {
        self.alts = std::mem::take(&mut self.alts)
            .into_iter()
            .map(|(c, q)| (c, q.viewed_as(ty, layouts)))
            .collect();
        if self.cell != 0 && ty.is_pointer() {
            let pointee = ty.canonical().pointee();
            // A pointer to rows of a multi-dimensional array moves whole
            // dimensions, which the index keeps apart.
            if !pointee.is_array() {
                if let Some(size) = layouts.size_of(pointee) {
                    self.elem = size;
                    if layouts
                        .align_of(pointee)
                        .is_some_and(|a| a % self.cell == 0)
                    {
                        self.rounded = false;
                        self.unaligned = None;
                    }
                }
            }
        }
        self
    }

    /// The cell an element `k` of the pointer's view lies in, counted from
    /// where the pointer is (a whole cell): for a view narrower than a cell
    /// (`float` over `float2`), the cell holding that part.
    pub(super) fn cell_of(&self, k: Expr) -> Option<Expr> {
        let (cell, elem) = (self.cell, self.elem);
        if elem != 0 && elem < cell && cell % elem == 0 {
            let parts = i64::try_from(cell / elem).ok()?;
            return Some(simplify(&Expr::bin(Op::Div, k, Expr::Int(parts))));
        }
        self.in_cells(k)
    }

    /// Moves the last index by `cells` forward (`Add`) or back (`Sub`).
    pub(super) fn advance(&mut self, op: Op, cells: Expr) {
        for (_, q) in &mut self.alts {
            q.advance(op, cells.clone());
        }
        match self.index.last_mut() {
            Some(last) => *last = simplify(&Expr::bin(op, last.clone(), cells)),
            None => self
                .index
                .push(simplify(&Expr::bin(op, Expr::Int(0), cells))),
        }
    }

    /// The arrays the pointer may be in.
    pub(super) fn targets(&self) -> Vec<&Target> {
        let mut out = vec![&self.target];
        for (_, q) in &self.alts {
            out.extend(q.targets());
        }
        out
    }

    /// Whether every array and place the pointer may be at is one `other`
    /// may be at.
    pub(super) fn places_within(&self, other: &Ptr) -> bool {
        let places = |p: &Ptr| {
            let mut out = vec![(p.target.clone(), p.index.clone(), p.rounded)];
            for (_, q) in &p.alts {
                out.push((q.target.clone(), q.index.clone(), q.rounded));
            }
            out
        };
        let theirs = places(other);
        places(self).iter().all(|p| theirs.contains(p))
    }

    /// A further dimension's index (a subscript of an array of arrays).
    pub(super) fn push_index(&mut self, i: Expr) {
        for (_, q) in &mut self.alts {
            q.push_index(i.clone());
        }
        self.index.push(i);
    }

    /// At its first cell when it has no index yet (`*p`, `p->f`).
    pub(super) fn at_cell(&mut self) {
        for (_, q) in &mut self.alts {
            q.at_cell();
        }
        if self.index.is_empty() {
            self.index.push(Expr::Int(0));
        }
    }

    /// `c ? self : other`, as one pointer with alternatives; `None` past
    /// [`MAX_ALTS`] or when the two count in different element sizes.
    pub(super) fn either(c: &Cond, mut a: Ptr, mut b: Ptr) -> Option<Ptr> {
        // A thread's own array counts in its elements, unscaled: it goes
        // with a view whose elements are whole cells (`v = fallback;` then
        // `if (inside) v = src + 3 * x;`), each moving by elements.
        let own = |p: &Ptr| matches!(p.target, Target::Private(_)) && (p.cell, p.elem) == (0, 0);
        let whole =
            |p: &Ptr| p.cell != 0 && p.cell == p.elem && !p.rounded && p.unaligned.is_none();
        let mixed = (own(&a) && whole(&b)) || (own(&b) && whole(&a));
        if (a.cell, a.elem) != (b.cell, b.elem) && !mixed {
            return None;
        }
        let mut alts: Vec<(Cond, Ptr)> = std::mem::take(&mut a.alts)
            .into_iter()
            .map(|(ca, q)| (Cond::and(c.clone(), ca), q))
            .collect();
        alts.push((c.clone(), a));
        alts.append(&mut b.alts);
        if alts.len() > MAX_ALTS {
            return None;
        }
        b.alts = alts;
        Some(b)
    }

    /// Pointer arithmetic: `k` elements of the view further or back;
    /// unknown when that is part of a cell.
    pub(super) fn moved(mut self, op: Op, k: Expr) -> Val {
        if !self.alts.is_empty() {
            let mut alts = Vec::new();
            for (c, q) in std::mem::take(&mut self.alts) {
                match q.moved(op, k.clone()) {
                    Val::Ptr(q) => alts.push((c, q)),
                    _ => return Val::Unknown,
                }
            }
            return match self.moved(op, k) {
                Val::Ptr(mut p) => {
                    p.alts = alts;
                    Val::Ptr(p)
                }
                v => v,
            };
        }
        // Off whole cells already: the bytes add up, then round down.
        if self.unaligned.is_some() {
            self.add_bytes(op, k);
            return Val::Ptr(self);
        }
        match self.in_cells(k.clone()) {
            Some(cells) => {
                self.advance(op, cells);
                Val::Ptr(self)
            }
            // Parts of a cell (bytes): rounded down.
            None if !self.rounded && self.elem != 0 && self.cell.is_multiple_of(self.elem) => {
                self.add_bytes(op, k);
                self.rounded = true;
                self.part = match self.part {
                    0 => self.elem,
                    p => p.min(self.elem),
                };
                Val::Ptr(self)
            }
            None => Val::Unknown,
        }
    }

    /// Moves the pointer by `k` elements of its view where that may end off
    /// whole cells: the bytes moved since the last whole cell add up, and
    /// the last index is the cell holding the byte they reach.
    fn add_bytes(&mut self, op: Op, k: Expr) {
        let (base, bytes) = self.unaligned.take().unwrap_or_else(|| {
            let base = self.index.last().cloned().unwrap_or(Expr::Int(0));
            (base, Expr::Int(0))
        });
        let elem = i64::try_from(self.elem.max(1)).unwrap_or(1);
        let cell = i64::try_from(self.cell.max(1)).unwrap_or(1);
        let bytes = simplify(&Expr::bin(
            op,
            bytes,
            Expr::bin(Op::Mul, k, Expr::Int(elem)),
        ));
        let last = simplify(&Expr::add(
            base.clone(),
            Expr::bin(Op::Div, bytes.clone(), Expr::Int(cell)),
        ));
        match self.index.last_mut() {
            Some(l) => *l = last,
            None => self.index.push(last),
        }
        self.unaligned = Some((base, bytes));
    }

    /// `k` elements of the pointer's view, in cells of its array; `None`
    /// when a view narrower than a cell moves by part of a cell.
    pub(super) fn in_cells(&self, k: Expr) -> Option<Expr> {
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

impl Lower {
    pub(super) fn access(&mut self, p: &Ptr, mode: Mode, loc: Loc) {
        self.access_storing(p, mode, loc, None);
    }

    /// An access; for a write, with the value it stores when known.
    pub(super) fn access_storing(&mut self, p: &Ptr, mode: Mode, loc: Loc, value: Option<Value>) {
        self.last_cell = None;
        if let (Target::Private(v), true) = (&p.target, mode != Mode::Read) {
            self.clobber_private(v, loc);
        }
        if let Some(((c, q), rest)) = p.alts.split_first() {
            let rest = Ptr {
                alts: rest.to_vec(),
                ..p.clone()
            };
            let at = |me: &mut Self, p: &Ptr| {
                me.capture(|me| {
                    me.access_storing(p, mode, loc, value.clone());
                    Ok(())
                })
                .map(|(_, s)| s)
                .unwrap_or_else(|_| Stmt::skip())
            };
            let then = at(self, q);
            let els = at(self, &rest);
            self.emit_if(c.clone(), then, els, loc);
            return;
        }
        let mut narrow = false;
        if let Target::Shared(array) = &p.target {
            // A part narrower than a cell, viewed or moved by: the array
            // is better counted in such parts (see `Lower::kernel`).
            // A move by parts counts only while the pointer is off whole
            // cells: realigned (`(float *)((char *)a + pitch)`), its
            // accesses are whole cells again.
            let part = match (p.elem, if p.rounded { p.part } else { 0 }) {
                (e, 0) => e,
                (0, q) => q,
                (e, q) => e.min(q),
            };
            narrow = part != 0 && part < p.cell && p.cell % part == 0;
            let dims = self.array_dims.entry(array.clone()).or_insert(0);
            *dims = (*dims).max(p.index.len());
            if narrow && p.index.len() <= 1 {
                let least = self.narrow_views.entry(array.clone()).or_insert(part);
                *least = (*least).min(part);
            }
            // A field past the cell (`a[i].v[3]`) is a dimension of its
            // own, which cells of another size would not line up with.
            let widest = self.widest_views.entry(array.clone()).or_insert(0);
            *widest = if p.index.len() > 1 {
                u64::MAX
            } else {
                (*widest).max(p.elem.max(p.cell))
            };
        }
        let loc = self.place(loc);
        // Choices the conditions around the access decide (an index set
        // under `if (active)`, read under it again) take their arm.
        let settle = |es: &[Expr], path: &[Cond]| -> Vec<Expr> {
            es.iter().map(|e| crate::imp::settled(e, path)).collect()
        };
        let mut index = settle(&p.cell_index(), &self.path);
        let value = value.map(|v| match v {
            Value::Expr(e) => Value::Expr(crate::imp::settled(&e, &self.path)),
            Value::Read { array, index } => Value::Read {
                array,
                index: settle(&index, &self.path),
            },
            Value::Fields(fields) => Value::Fields(settle(&fields, &self.path)),
        });
        if p.rounded {
            let anywhere = self.local("byte_offset");
            if let Some(last) = index.last_mut() {
                *last = anywhere;
            }
        }
        // A part of a cell whose fields are dimensions (`((float *)a)[j]`
        // over `struct { float v[2]; }`): any field of the cell holding it.
        if let Target::Shared(array) = &p.target {
            let dims = self.padded.get(array).copied().unwrap_or(0);
            while narrow && index.len() < dims {
                index.push(self.local("part_of_cell"));
            }
        }
        if let Target::Shared(array) = &p.target {
            self.accesses_made += 1;
            // An element wider than a cell (a `float4` through a cast over
            // `float`) covers that many cells; each is accessed, so that a
            // narrower access to any of them meets it.
            let width = match (p.cell, p.elem) {
                (c, e) if c > 0 && e > c && e % c == 0 && e / c <= MAX_WIDTH => e / c,
                _ => 1,
            };
            let lock = self.lock_held();
            self.lock_access(array, mode);
            let global = self.global(array);
            let phase = if global { self.ticket_phase() } else { None };
            if global && !self.ticket_taken {
                self.unfenced = true;
            }
            for part in 0..width {
                let mut index = index.clone();
                if let Some(last) = index.last_mut() {
                    *last = simplify(&Expr::add(last.clone(), Expr::Int(part as i64)));
                }
                let access = Stmt::Access {
                    array: array.clone(),
                    mode,
                    index,
                    loc,
                    value: if part == 0 { value.clone() } else { None },
                    lock: lock.clone(),
                };
                match &phase {
                    Some(c) => self.emit_if(c.clone(), access, Stmt::skip(), loc),
                    None => self.emit(access),
                }
            }
        }
        if mode != Mode::Read {
            // Any cell of the array may be the one just written.
            self.facts.retain(|(t, _, _)| t != &p.target);
        }
    }

    pub(super) fn write(&mut self, p: &Ptr, v: &Val, loc: Loc) {
        // A value the block shares is stored as one variable, so that two
        // threads storing it store equal values (`out[0] = s[0]`).
        let shared = matches!(v, Val::Uniform | Val::Stored(..));
        let v = &if shared {
            Val::Int(self.materialize(v.clone(), "stored"))
        } else {
            v.clone()
        };
        let copied = self.copied_cell.take();
        let value = match v {
            Val::Int(e) if !too_big(e) => Some(Value::Expr(simplify(e))),
            // Its bits stand for the value: equal only for equal constants.
            Val::Float(f) => Some(Value::Expr(Expr::Int(*f as i64))),
            Val::Ptr(q) => self.address(q, p).map(Value::Expr),
            Val::Unknown => copied,
            Val::Collective(c) => Some(c.clone()),
            _ => None,
        };
        if let (Target::Private(a), true) = (&p.target, p.alts.is_empty() && !p.rounded) {
            let stored = match v {
                Val::Int(e) => Some(e.clone()),
                Val::Float(f) => Some(Expr::Int(*f as i64)),
                _ => None,
            };
            self.note_alike_store(a, &p.index, stored.as_ref());
        }
        self.access_storing(p, Mode::Write, loc, value);
        self.alike.store_done();
        // `*q = x` with `q = &n`: `n` is `x` now, a number or a pointer
        // (`*pp = b` with `pp = &p`).
        if let (Target::Private(n), [Expr::Int(0)]) = (&p.target, p.index.as_slice()) {
            let exact = p.alts.is_empty() && !p.rounded;
            match (v, self.env.get(n)) {
                (Val::Int(_), Some(Val::Int(_))) | (Val::Ptr(_), Some(Val::Unknown)) if exact => {
                    self.env.insert(n.clone(), v.clone());
                }
                _ => {}
            }
        }
        let index = p.cell_index();
        self.publish(p, v, &index);
        self.publish_in_loop(p, v, &index);
        if let (Val::Int(e), false, true) = (v, p.rounded, p.alts.is_empty()) {
            self.facts.push((p.target.clone(), index, e.clone()));
        }
        if let (Val::Ptr(q), true) = (v, p.alts.is_empty()) {
            match &p.target {
                Target::Shared(kept) if !self.global(kept) => {
                    self.kept_pointers.push((kept.clone(), q.clone()));
                }
                // A thread's own array of pointers, not a variable's
                // address (`q = &n`, one cell at index 0 of no array).
                Target::Private(kept) if !p.index.is_empty() => {
                    self.kept_pointers.push((kept.clone(), q.clone()));
                }
                _ => {}
            }
        }
        if let Target::Private(kept) = &p.target {
            let plain = match v {
                Val::Ptr(q) => q.alts.is_empty(),
                Val::Int(e) => *e == Expr::Int(0),
                _ => false,
            };
            if !p.index.is_empty() && !plain {
                self.opaque_private.insert(kept.clone());
            }
        }
    }

    /// The address `q` as a value stored at `dst`, when two threads storing
    /// it store equal numbers: a cell of a one-dimensional array, as `address_of_a`
    /// plus the cell. A `__shared__` array's address is the block's own, so
    /// it is no value stored to global memory.
    /// The address is a parameter of the protocol: one value for every
    /// thread.
    pub(super) fn address(&mut self, q: &Ptr, dst: &Ptr) -> Option<Expr> {
        let Target::Shared(a) = &q.target else {
            return None;
        };
        if !q.alts.is_empty() {
            return None;
        }
        let cell = match q.index.as_slice() {
            [] => &Expr::Int(0),
            [cell] => cell,
            _ => return None,
        };
        let dst_global = matches!(&dst.target, Target::Shared(d) if self.global(d));
        if dst_global && !self.global(a) {
            return None;
        }
        let base = format!("address_of_{a}");
        if !self.prog.params.contains(&base) {
            self.prog.params.push(base.clone());
        }
        Some(simplify(&Expr::add(Expr::var(&base), cell.clone())))
    }

    /// Records a write of a value the block shares to one cell of a
    /// `__shared__` array, when some thread of every block that reaches
    /// it performs it: outside loops, under conditions on the block or
    /// ones thread 0 satisfies (`tid == 0`, `lane == 0`). Reads after a
    /// barrier then take the value itself, which ties it to the block's
    /// id where threads of two blocks meet; each thread's own unknown
    /// would let two blocks publish the same base.
    fn publish(&mut self, p: &Ptr, v: &Val, index: &[Expr]) {
        let Target::Shared(a) = &p.target else {
            return;
        };
        if self.global(a) || self.unpublished.contains(a) {
            return;
        }
        // A write of another cell leaves the published one alone; that it
        // cannot be that cell is checked once the kernel is lowered
        // (`check_published`). A write of that cell with another value,
        // or one not every block makes, leaves its value unknown.
        let overwrite = |me: &mut Self| {
            if let Some(Some(q)) = me.published.get(a) {
                if q.index == index {
                    me.published.insert(a.clone(), None);
                }
            }
        };
        let (value, pointer) = match v {
            Val::Int(e) if p.whole_cell() && p.alts.is_empty() && !too_big(e) => {
                (simplify(e), None)
            }
            // A pointer into one array at a place the block shares: its
            // address is the value, as its stores record it.
            Val::Ptr(q)
                if p.whole_cell() && p.alts.is_empty() && q.alts.is_empty() && !q.rounded =>
            {
                match self.address(q, p) {
                    Some(address) if q.index.iter().all(|e| self.block_level(e)) => {
                        (address, Some(q.clone()))
                    }
                    _ => return overwrite(self),
                }
            }
            _ => return overwrite(self),
        };
        let every_block = self.thread_zero_path().filter(|_| self.outside_loops());
        // A pointer's index was asked above; its address names the array.
        let uniform = index.iter().all(|e| self.block_level(e))
            && (pointer.is_some() || self.block_level(&value));
        match (self.published.get(a), every_block) {
            _ if !uniform => overwrite(self),
            (None, Some((conds, _))) => {
                let q = Published {
                    index: index.to_vec(),
                    value,
                    pointer,
                    conds,
                };
                self.published.insert(a.clone(), Some(q));
            }
            (Some(Some(q)), _) if q.index == index && q.value == value => {}
            _ => overwrite(self),
        }
    }

    /// Records a write by thread 0 of every block, inside a loop, of a
    /// value over a ticket of a grid counter it took in the same trip
    /// (`if (tid == 0) { t = atomicAdd(&next, 1); tile = t; }`, or `t % w`):
    /// a read later in that trip, under the same conditions on the block,
    /// takes the value over the block's ticket (`Kernel::ticket_reads`).
    /// Any other write of the cell ends it; that writes of other cells
    /// miss it is checked once the kernel is lowered
    /// (`Lower::settle_ticket_reads`).
    fn publish_in_loop(&mut self, p: &Ptr, v: &Val, index: &[Expr]) {
        let Target::Shared(a) = &p.target else {
            return;
        };
        if self.global(a) {
            return;
        }
        let published = (|| {
            let Val::Int(e) = v else {
                return None;
            };
            if !p.whole_cell() || !p.alts.is_empty() || too_big(e) {
                return None;
            }
            let value = simplify(e);
            let mut vars = BTreeSet::new();
            value.free_vars(&mut vars);
            let taken: Vec<&String> = vars
                .iter()
                .filter(|v| self.ticket_loops.contains_key(*v))
                .collect();
            let [ticket] = taken.as_slice() else {
                return None;
            };
            let (t, _, _) = self.tickets.iter().find(|(t, _, _)| t.local == **ticket)?;
            if !t.grid || t.block || t.cell.is_some() || t.group.is_some() {
                return None;
            }
            let loop_var = self.ticket_loops.get(*ticket)?.clone()?;
            if self.loop_vars.last() != Some(&loop_var) {
                return None;
            }
            let rest = value.subst(ticket, &Expr::Int(0));
            if !self.block_level(&rest) || !index.iter().all(|i| self.block_level(i)) {
                return None;
            }
            // Conditions on the loops' variables are the block's at a trip
            // its threads make together, as the read's trip is.
            let (conds, _) = self.thread_zero_path_by(|c| {
                let mut vars = BTreeSet::new();
                c.free_vars(&mut vars);
                vars.retain(|v| !self.loop_vars.contains(v));
                imp::is_uniform(&vars, &self.prog.params)
            })?;
            Some(LoopPublished {
                index: index.to_vec(),
                value: value.clone(),
                ticket: (*ticket).clone(),
                loop_var,
                conds,
            })
        })();
        match published {
            Some(q) => {
                let this = Publication {
                    cell: q.index.clone(),
                    value: q.value.clone(),
                };
                let entry = self
                    .loop_publications
                    .entry(a.clone())
                    .or_insert_with(|| Some(this.clone()));
                // Another value (of another counter's ticket) could be the
                // one read.
                if entry.as_ref() != Some(&this) {
                    *entry = None;
                }
                self.loop_published.insert(a.clone(), q);
            }
            None => {
                if self
                    .loop_published
                    .get(a)
                    .is_some_and(|q| q.index == index || !p.alts.is_empty() || !p.whole_cell())
                {
                    self.loop_published.remove(a);
                }
            }
        }
    }

    /// The value over the block's ticket a read in the trip that published
    /// it sees ([`Lower::publish_in_loop`]): a local of its own, one value
    /// for the block where the read is the block's (`uniform_reads`), and
    /// the published value over a local standing for the ticket.
    fn loop_published_value(&mut self, p: &Ptr, index: &[Expr], loc: Loc) -> Option<Val> {
        let Target::Shared(a) = &p.target else {
            return None;
        };
        let q = self.loop_published.get(a)?;
        if !p.whole_cell() || !p.alts.is_empty() || q.index != index {
            return None;
        }
        if !self.loop_vars.contains(&q.loop_var) || !q.conds.iter().all(|c| self.path.contains(c)) {
            return None;
        }
        let q = q.clone();
        let ticket = match self.read_tickets.get(&q.ticket) {
            Some(t) => t.clone(),
            None => {
                let Expr::Var(t) = self.local("published_ticket") else {
                    return None;
                };
                self.read_tickets.insert(q.ticket.clone(), t.clone());
                t
            }
        };
        let Expr::Var(local) = self.local("published") else {
            return None;
        };
        let at = self.place(loc);
        self.stored.push((local.clone(), a.clone(), at));
        let read = crate::protocol::TicketRead {
            local: local.clone(),
            ticket: ticket.clone(),
            value: q.value.subst(&q.ticket, &Expr::var(&ticket)),
            counts_up: false,
        };
        self.ticket_reads.push((read, a.clone(), q.ticket.clone()));
        Some(Val::Int(Expr::var(&local)))
    }

    /// The reads of published tickets whose arrays no other write reaches
    /// and whose counters hand each ticket out once, into the kernel.
    pub(super) fn settle_ticket_reads(&mut self) {
        let reads = std::mem::take(&mut self.ticket_reads);
        let mut kept = Vec::new();
        for (mut read, array, taken) in reads {
            let Some(t) = self.prog.tickets.iter().find(|t| t.local == taken) else {
                continue;
            };
            read.counts_up = t.counts_up;
            let Some(Some(Publication {
                cell,
                value: stored,
            })) = self.loop_publications.get(&array).cloned()
            else {
                continue;
            };
            let alone = others_apart(
                &self.out,
                &array,
                &cell,
                &self.prog.assumes,
                |mode, index, value| {
                    let publication = mode == Mode::Write
                        && index == cell.as_slice()
                        && matches!(value, Some(Value::Expr(e)) if *e == stored);
                    mode != Mode::Read && !publication
                },
            );
            if alone {
                kept.push(read);
            }
        }
        self.prog.ticket_reads = kept;
    }

    /// The value published in `p`'s cell, when this read sees it.
    fn published_value(&mut self, p: &Ptr, index: &[Expr]) -> Option<Val> {
        let Target::Shared(a) = &p.target else {
            return None;
        };
        let q = self.published.get(a)?.as_ref()?;
        if !p.whole_cell() || !p.alts.is_empty() || q.index != index {
            return None;
        }
        if !q.conds.iter().all(|c| self.path.contains(c)) {
            return None;
        }
        let value = match &q.pointer {
            Some(pointer) => Val::Ptr(pointer.clone()),
            None => Val::Int(q.value.clone()),
        };
        self.publish_reads.insert(a.clone());
        Some(value)
    }

    /// Whether every write of an array whose published value a read took
    /// stores that value in that cell; the others are lowered again.
    pub(super) fn check_published(&mut self) {
        for a in &self.publish_reads {
            let Some(Some(q)) = self.published.get(a) else {
                self.republish.insert(a.clone());
                continue;
            };
            let stored = Some(Value::Expr(q.value.clone()));
            // Stores of the published value in its cell are the
            // publication; every other write must miss the cell.
            let same = others_apart(
                &self.out,
                a,
                &q.index,
                &self.prog.assumes,
                |mode, index, value| {
                    mode != Mode::Read
                        && !(mode == Mode::Write && index == q.index && *value == stored)
                },
            );
            if !same {
                self.republish.insert(a.clone());
            }
        }
    }

    pub(super) fn read(&mut self, p: &Ptr, loc: Loc) -> Val {
        self.access(p, Mode::Read, loc);
        if p.rounded || !p.alts.is_empty() {
            return Val::Unknown;
        }
        // `*q` with `q = &n`: `n`.
        if let (Target::Private(n), [Expr::Int(0)]) = (&p.target, p.index.as_slice()) {
            if let Some(v @ (Val::Int(_) | Val::Ptr(_))) = self.env.get(n) {
                return v.clone();
            }
        }
        let index = p.cell_index();
        // A `__shared__` array is the block's own: blocks read apart. A
        // view narrower or wider than a cell reads part of one or several.
        if let Target::Shared(a) | Target::ReadOnly(a) = &p.target {
            // Cells of a size the template leaves open are viewed in one
            // type only (`open_views`): an element is a cell.
            let open_cell = p.cell == 0 && p.elem == 0 && p.part == 0 && !p.rounded;
            let whole = p.whole_cell() || open_cell;
            if whole && (matches!(p.target, Target::ReadOnly(_)) || self.global(a)) {
                self.last_cell = Some((loc, a.clone(), index.clone(), p.cell));
            }
        }
        let known = self
            .facts
            .iter()
            .rev()
            .find(|(t, i, _)| *t == p.target && *i == index)
            .map(|(_, _, e)| Val::Int(e.clone()));
        let known = known.or_else(|| self.published_value(p, &index));
        let known = known.or_else(|| self.loop_published_value(p, &index, loc));
        let known = known.or_else(|| match &p.target {
            Target::ReadOnly(a) if p.whole_cell() && p.alts.is_empty() => {
                self.table_value(a, &index).map(Val::Int)
            }
            _ => None,
        });
        let known = known.or_else(|| match &p.target {
            Target::Private(a) => self.alike_read(a, &index).map(Val::Int),
            _ => None,
        });
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
                Target::ReadOnly(a) | Target::Shared(a)
                    if !index.iter().all(|i| self.block_uniform(i))
                        && index.iter().all(|i| self.uniform_in_loops(i)) =>
                {
                    // Over enclosing loop variables: one value for the block
                    // where those loops are synchronized, which the analysis
                    // decides per barrier interval (`analysis::uniform_reads`).
                    let at = self.place(loc);
                    self.loop_reads.insert(at);
                    Val::Stored(a.clone(), at)
                }
                Target::Shared(a) if index.iter().all(|i| self.block_uniform(i)) => {
                    Val::Stored(a.clone(), self.place(loc))
                }
                // At an address over values read the same way (`deg[seed]`
                // with `seed = order[i]`): the block's when those are.
                Target::ReadOnly(a) | Target::Shared(a) => match self.read_over_reads(&index) {
                    Some(deps) => {
                        let at = self.place(loc);
                        self.loop_reads.insert(at);
                        self.read_deps.insert(at, deps);
                        Val::Stored(a.clone(), at)
                    }
                    None => Val::Unknown,
                },
                _ => Val::Unknown,
            },
        }
    }

    /// The locals of reads a block may agree on (`Val::Stored`, made
    /// locals) that `index` is over, when nothing else in it is a thread's
    /// own: parameters, launch sizes, block ids and the variables of
    /// loops that run alike in every thread aside. None when it names no
    /// such read, or something else of the thread's.
    fn read_over_reads(&self, index: &[Expr]) -> Option<Vec<String>> {
        let candidates: BTreeSet<&String> = self.stored.iter().map(|(l, _, _)| l).collect();
        let mut vars = BTreeSet::new();
        index.iter().for_each(|i| i.free_vars(&mut vars));
        let deps: Vec<String> = vars
            .iter()
            .filter(|v| candidates.contains(v))
            .cloned()
            .collect();
        vars.retain(|v| !candidates.contains(v) && !self.uniform_loops.contains(v));
        (!deps.is_empty() && imp::is_uniform(&vars, &self.prog.params)).then_some(deps)
    }

    /// A pointer initialised from an object whose class converts to a
    /// pointer without looking at the object (`T *s = SharedMemory<T>();`,
    /// whose conversion returns an `extern __shared__` array): the
    /// conversion's body, inlined. Unknown otherwise.
    pub(super) fn pointer_conversion(&mut self, init: &Node) -> R<Val> {
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

    pub(super) fn load(&mut self, n: &Node) -> R<Val> {
        match self.lvalue(n)? {
            LVal::Var(v) => Ok(self.env.get(&v).cloned().unwrap_or(Val::Unknown)),
            LVal::Mem(p) => {
                let v = self.read(&p, loc_of(n));
                if let Val::Ptr(_) = v {
                    return Ok(v);
                }
                if let (Val::Stored(_, at), true) = (&v, n.ty().is_unsigned()) {
                    self.unsigned_reads.insert(*at);
                }
                let q = self
                    .loaded_pointer(n, &p)
                    .or_else(|| self.kept_pointer(n, &p))
                    .or_else(|| self.private_pointer(n, &p));
                Ok(q.map_or(v, Val::Ptr))
            }
            LVal::Unknown => Ok(Val::Unknown),
        }
    }

    /// A pointer read from global memory (`float *row = rows[blockIdx.x]`,
    /// `elem->name`): the buffer it points to, as an array of its own named
    /// after where the pointer is kept, with the pointer's cell as its first
    /// index. Threads that read one cell share the buffer; the buffers of
    /// different cells are taken to be apart, as pointer parameters are.
    pub(super) fn loaded_pointer(&mut self, n: &Node, p: &Ptr) -> Option<Ptr> {
        let ty = n.ty();
        let (Target::Shared(base) | Target::ReadOnly(base)) = &p.target else {
            return None;
        };
        if !p.alts.is_empty() {
            return None;
        }
        // A table of pointers no thread writes is as good as global memory.
        let global = match &p.target {
            Target::ReadOnly(_) => self.pointer_tables.contains(base),
            _ => self
                .prog
                .arrays
                .iter()
                .any(|a| a.name == *base && a.scope == Scope::Global),
        };
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
        let mut index = p.cell_index();
        index.push(Expr::Int(0));
        Some(Ptr::of_cells(
            Target::Shared(name),
            index,
            self.cell_size(ty),
        ))
    }

    /// A pointer read from `__shared__` memory where the kernel keeps
    /// pointers into one array (`if (tid == 0) bin = &bins[k];
    /// __syncthreads(); … bin[i]`): into that array, at a place of its own.
    /// That no store puts a pointer to another array there is checked once
    /// the whole kernel is lowered.
    pub(super) fn kept_pointer(&mut self, n: &Node, p: &Ptr) -> Option<Ptr> {
        let Target::Shared(kept) = &p.target else {
            return None;
        };
        if !p.alts.is_empty() {
            return None;
        }
        if !n.ty().is_pointer() || self.global(kept) {
            return None;
        }
        let q = self.kept_at_fresh_offsets(kept)?;
        // Kept at a place the block shares, it is the block's pointer when
        // nothing stores there while it is read (`Kernel::uniform_reads`).
        if p.index.iter().all(|i| self.block_uniform(i)) {
            let at = self.place(loc_of(n));
            for i in &q.index {
                if let Expr::Var(local) = i {
                    self.stored.push((local.clone(), kept.clone(), at));
                }
            }
        }
        Some(q)
    }

    /// A pointer into the array the first pointer stored in `kept` points
    /// into, at fresh offsets, noted as read from there (the check after
    /// lowering that every store there points into that array).
    fn kept_at_fresh_offsets(&mut self, kept: &str) -> Option<Ptr> {
        let first = self
            .kept_pointers
            .iter()
            .find(|(k, _)| k == kept)
            .map(|(_, q)| q.clone())?;
        let index: Vec<Expr> = (0..first.index.len().max(1))
            .map(|_| self.local(&format!("{kept}.offset")))
            .collect();
        self.pointer_reads
            .push((kept.to_string(), first.target.clone()));
        Some(Ptr { index, ..first })
    }

    /// A pointer read from a thread's own array of pointers (`const T
    /// *bases[K]; bases[i] = out + slot[i] * n; … bases[j][c]`): into the
    /// array its stores point into, at a place of its own. That every
    /// store there points into that one array is checked once the whole
    /// kernel is lowered, as for pointers kept in `__shared__` memory.
    pub(super) fn private_pointer(&mut self, n: &Node, p: &Ptr) -> Option<Ptr> {
        let Target::Private(kept) = &p.target else {
            return None;
        };
        // In a template the element's type may be dependent (`const T
        // *bases[K]`); the stores say it holds pointers.
        let pointer = n.ty().is_pointer() || n.ty().is_dependent();
        if !p.alts.is_empty() || !pointer || p.index.is_empty() {
            return None;
        }
        self.kept_at_fresh_offsets(kept)
    }

    pub(super) fn store(&mut self, lv: &LVal, v: Val, loc: Loc) {
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

    pub(super) fn var_lvalue(&mut self, d: &Node) -> R<LVal> {
        let k = key(d);
        if let Some(t) = variable_template(d) {
            return Ok(self.variable_template_lvalue(&t));
        }
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
                if d.is_shared() {
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
        let shared = d.is_shared();
        // A plain global that device code names (code written for
        // GPUVerify, whose front end accepts it) is a `__device__` one. A
        // local of a function template, declared without a value, is none.
        let file_scope = d.semantic_parent().is_some_and(|p| {
            [K::TRANSLATION_UNIT, K::NAMESPACE, K::LINKAGE_SPEC].contains(&p.kind())
        });
        let plain = file_scope && !shared && !d.has_attr(K::CUDA_CONSTANT);
        let device = d.has_attr(K::CUDA_DEVICE) || d.has_attr(K::CUDA_CONSTANT) || plain;
        let constant = d.has_attr(K::CUDA_CONSTANT) || const_elements(&d.ty());
        // A `__constant__` pointer the host sets (`cudaMemcpyToSymbol(d_dag,
        // &buf, …)`) is kept as a `__device__` one is: a cell no thread
        // writes, whose pointer is a buffer of its own.
        let host_set_pointer =
            d.has_attr(K::CUDA_CONSTANT) && d.ty().is_pointer() && exprs(&d).is_empty();
        let g = if (shared || device) && (!constant || host_set_pointer) {
            let name = self.array_of(&d, if shared { Scope::Shared } else { Scope::Global });
            let index = if d.ty().is_array() {
                vec![]
            } else {
                vec![Expr::Int(0)]
            };
            Val::Ptr(self.array_cells(name, index, self.cell_size(d.ty())))
        } else if d.ty().is_array() {
            // A read-only table (`__constant__`, `const`): its cells never
            // race; a cell's value is unknown but the same in every thread,
            // or known from the initializer.
            if let Some(values) = self.known_table(&d) {
                self.tables.insert(name.clone(), values);
            }
            let initialized = init_list(&d).is_some();
            if d.has_attr(K::CUDA_CONSTANT) && d.ty().element().is_pointer() && !initialized {
                self.pointer_tables.insert(name.clone());
            }
            Val::Ptr(Ptr::of_cells(
                Target::ReadOnly(name),
                vec![],
                self.cell_size(d.ty()),
            ))
        } else {
            match d.eval_int() {
                Some(v) => Val::Int(Expr::Int(v)),
                // A `__constant__` integer the host sets
                // (`cudaMemcpyToSymbol(len, …)`) is a parameter by another
                // name: a caller's choice, which a precondition may
                // constrain. A `const` one whose value the front-end cannot
                // compute is one value for every thread, but no choice.
                None if d.ty().is_integral() => {
                    let host_set = d.has_attr(K::CUDA_CONSTANT) && !d.ty().is_const_qualified();
                    let v = if host_set {
                        self.param(&name)
                    } else {
                        self.unknown_param(&name)
                    };
                    Val::Int(Expr::var(&v))
                }
                // The host may overwrite a `__constant__` one's initial value.
                None if d.ty().is_floating() => match d.eval_float() {
                    Some(f) if d.ty().is_const_qualified() => Val::Float(f.to_bits()),
                    _ => Val::Uniform,
                },
                None => Val::Unknown,
            }
        };
        self.globals.insert(k.clone(), g);
        self.var_lvalue(d)
    }

    /// The cells of a read-only integer table `d` when its initializer
    /// gives them all and nothing may change them: a `const` table, or a
    /// `__constant__` one in the kernel's own file, which names no symbol
    /// copy (`cudaMemcpyToSymbol`) the host could change it with. Small
    /// tables only: a read becomes a choice among the cells.
    fn known_table(&self, d: &Node) -> Option<Vec<i64>> {
        let ty = d.ty();
        if !ty.element().is_integral() {
            return None;
        }
        let list = init_list(d)?;
        let values: Vec<i64> = exprs(&list)
            .iter()
            .map(|e| e.eval_int())
            .collect::<Option<Vec<i64>>>()?;
        if values.is_empty() || values.len() > MAX_TABLE {
            return None;
        }
        let fixed = const_elements(&ty) || {
            let source = self.source.as_ref()?;
            d.pos().file == self.main
                && !["ToSymbol", "SymbolAddress", "GetGlobal"]
                    .iter()
                    .any(|w| source.text.contains(w))
        };
        fixed.then_some(values)
    }

    /// A read of the known table `a` at `index`: the cell's value, or the
    /// choice among the cells by the index (the last one past them, where
    /// a read is out of bounds).
    pub(super) fn table_value(&self, a: &str, index: &[Expr]) -> Option<Expr> {
        let values = self.tables.get(a)?;
        let [i] = index else {
            return None;
        };
        let i = simplify(i);
        if let Expr::Int(k) = i {
            return usize::try_from(k)
                .ok()
                .and_then(|k| values.get(k))
                .map(|v| Expr::Int(*v));
        }
        let mut e = Expr::Int(*values.last()?);
        for (k, v) in values.iter().enumerate().rev().skip(1) {
            if Expr::Int(*v) == e {
                continue;
            }
            let at = Cond::cmp(Rel::Eq, i.clone(), Expr::Int(k as i64));
            e = Expr::Ite(Box::new(at), Box::new(Expr::Int(*v)), Box::new(e));
        }
        Some(e)
    }

    /// A variable template named in a template pattern (`mask<T>[j]`):
    /// libclang shows neither its specializations nor its declaration's
    /// attributes there, so its tokens tell what memory it is. Its
    /// specializations are one array: `__constant__` ones are read-only, so
    /// which one is read never matters.
    fn variable_template_lvalue(&mut self, t: &Node) -> LVal {
        let k = key(t);
        if let Some(g) = self.globals.get(&k) {
            return match g {
                Val::Ptr(p) => LVal::Mem(p.clone()),
                _ => LVal::Unknown,
            };
        }
        let name = t.spelling();
        let tokens: Vec<String> = t.tokens().into_iter().map(|(s, _)| s).collect();
        // The declaration proper begins after the template's parameter list.
        let mut depth = 0;
        let mut start = 0;
        for (i, tok) in tokens.iter().enumerate() {
            match tok.as_str() {
                "<" => depth += 1,
                ">" => {
                    depth -= 1;
                    if depth == 0 {
                        start = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let decl = &tokens[start.min(tokens.len())..];
        let has = |w: &str| decl.iter().take_while(|t| **t != name).any(|t| t == w);
        let is_array = decl
            .iter()
            .skip_while(|t| **t != name)
            .nth(1)
            .is_some_and(|t| t == "[");
        let target = if has("__constant__") || has("const") || has("constexpr") {
            Target::ReadOnly(name)
        } else if has("__device__") || has("__shared__") {
            let scope = if has("__shared__") {
                Scope::Shared
            } else {
                Scope::Global
            };
            self.add_array(&name, scope, loc_of(t));
            Target::Shared(name)
        } else {
            return LVal::Unknown;
        };
        let p = Ptr::new(target, if is_array { vec![] } else { vec![Expr::Int(0)] });
        self.globals.insert(k, Val::Ptr(p.clone()));
        LVal::Mem(p)
    }

    pub(super) fn lvalue(&mut self, n: &Node) -> R<LVal> {
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
            // Through parentheses and decay only: `((float *)s)[i]` over an
            // array of `float2` subscripts a pointer's view, not the array.
            let mut b = base;
            while b.kind() == K::PAREN || b.kind() == K::UNEXPOSED {
                match exprs(&b).as_slice() {
                    [inner] => b = *inner,
                    _ => break,
                }
            }
            let base_is_array = has_array_type(&b);
            let p = self.pointer(&base)?;
            let i = self.int(&idx, "index")?;
            return Ok(match p {
                Some(mut p) => {
                    // An array member of a record laid over an array of
                    // its elements (`det->bbox[k]` for a `Detection *` cast
                    // from `float *`): the subscript moves along the array,
                    // where records may overlap, not into a dimension of
                    // its own, which would keep `r[1].bbox[0]` apart from
                    // `r[0].bbox[1]` in records one float apart.
                    let member_cells = b.kind() == K::MEMBER_REF
                        && p.cell != 0
                        && p.cell == p.elem
                        && p.index.len() == 1
                        && b.ty().canonical().element().size_of() == Some(p.cell);
                    if member_cells {
                        p.advance(Op::Add, i);
                    } else if base_is_array {
                        // A one-dimensional array counted in parts of its
                        // elements (see `Lower::kernel`): an element is
                        // that many cells.
                        let flat = !b.ty().canonical().element().is_array();
                        let i = if flat && p.cell != p.elem {
                            p.in_cells(i.clone()).unwrap_or(i)
                        } else {
                            i
                        };
                        p.push_index(i);
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
                    p.at_cell();
                    Ok(LVal::Mem(p))
                }
                None => unsupported(&n, "access through a pointer of unknown origin"),
            };
        }
        if k == K::MEMBER_REF {
            let field = member_name(&n);
            let base = exprs(&n).into_iter().next().map(strip);
            // A member of the object of an inlined member function
            // (`p[i]` or `this->p[i]` in its body): the caller's object.
            if base.is_none_or(|b| b.kind() == K::THIS) {
                return Ok(match self.this.last().cloned() {
                    // A field of an array element is an access to the element.
                    Some(ThisObject { mem: Some(p), .. }) => LVal::Mem(p),
                    Some(object) => {
                        let qualified = format!("{}.{field}", object.path);
                        self.field(&object.var, &field, &n, qualified, object.param)
                    }
                    None => LVal::Unknown,
                });
            }
            let base = base.expect("checked above");
            if base.ty().is_pointer() {
                // `p->f`: an access to the element `p` points at.
                return match self.pointer(&base)? {
                    Some(mut p) => {
                        p.at_cell();
                        Ok(LVal::Mem(p))
                    }
                    None => unsupported(&n, "access through a pointer of unknown origin"),
                };
            }
            return Ok(match self.lvalue(&base)? {
                LVal::Var(v) => {
                    // Nested structs (`A.s.p`): the path down to the
                    // parameter.
                    let (qualified, is_param) = self.member_path(&base, &field);
                    self.field(&v, &field, &n, qualified, is_param)
                }
                // A field of an array element is an access to the element.
                other => other,
            });
        }
        if let Some((_, ops)) = pointer_operator(&n).filter(|(o, _)| o == "operator*") {
            return match self.pointer(&ops[0])? {
                Some(mut p) => {
                    p.at_cell();
                    Ok(LVal::Mem(p))
                }
                None => unsupported(&n, "access through a pointer of unknown origin"),
            };
        }
        // `cell(p, i) = v`, `view[i] += v`: the function returns a
        // reference; its `return` names the place assigned.
        if returns_reference(&n) {
            let site = (loc_of(&n), n.id());
            self.lvalue_call = Some(site);
            let r = self.rvalue(&n);
            self.lvalue_call = None;
            r?;
            // Unknown otherwise: an assignment through it is refused
            // (`Lower::target`); a `const &` bound to it reads nothing new.
            return Ok(match self.returned_place.take() {
                Some((at, lv)) if at == site => lv,
                _ => LVal::Unknown,
            });
        }
        // `(c ? a[i] : b[j]) = v`: the place the condition picks.
        if k == K::CONDITIONAL {
            let (c, a, b) = match self.choice(&n, |me, e| me.lvalue(e))? {
                None => return unsupported(&n, "an assignment to a choice drfscan cannot read"),
                Some(Chosen::One(lv)) => return Ok(lv),
                Some(Chosen::Both(c, a, b)) => (c, a, b),
            };
            // Two places drfscan cannot join are unknown, as above.
            return Ok(match (a, b) {
                (LVal::Var(x), LVal::Var(y)) if x == y => LVal::Var(x),
                // `(c ? lo : hi) = v` on locals: each may take the value,
                // so both become unknown; the store goes nowhere else.
                (LVal::Var(x), LVal::Var(y)) => {
                    let loc = loc_of(&n);
                    self.clobber(&LVal::Var(x), loc);
                    self.clobber(&LVal::Var(y), loc);
                    LVal::Var(self.name("choice"))
                }
                (LVal::Mem(x), LVal::Mem(y)) => match Ptr::either(&c, x, y) {
                    Some(p) => LVal::Mem(p),
                    None => LVal::Unknown,
                },
                _ => LVal::Unknown,
            });
        }
        // `(e, a[i]) = v`: the right operand's place, after the left.
        if k == K::BINARY && n.binop() == op::COMMA {
            let ch = exprs(&n);
            if let [left, right] = ch.as_slice() {
                self.rvalue(left)?;
                return self.lvalue(right);
            }
        }
        if k == K::CALL || k == K::BINARY {
            self.rvalue(&n)?;
            return Ok(LVal::Unknown);
        }
        Ok(LVal::Unknown)
    }

    /// The place an assignment (`=`, `+=`, `++`) writes. A place a
    /// reference-returning call or a choice gives that drfscan cannot name
    /// is refused: dropping the write could hide a race.
    pub(super) fn target(&mut self, n: &Node) -> R<LVal> {
        let lv = self.lvalue(n)?;
        let t = strip(*n);
        let may_be_memory = t.kind() == K::CONDITIONAL || returns_reference(&t);
        if lv == LVal::Unknown && may_be_memory {
            return unsupported(
                &t,
                "an assignment through a reference a call returns or a choice makes, to a place drfscan does not know",
            );
        }
        Ok(lv)
    }

    /// The source path of a member of a structure variable (`A.s.p`) and
    /// whether its root is a parameter of the kernel itself, or the object
    /// of a member function inlined from the kernel on such a parameter.
    pub(super) fn member_path(&self, base: &Node, field: &str) -> (String, bool) {
        let mut root = *base;
        let mut path = vec![field.to_string()];
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
        (path.join("."), is_param)
    }

    /// The field `field` of the structure variable `v`, read as `n`: a
    /// field of a kernel parameter passed by value is the same for every
    /// thread (a parameter, or an array of its own).
    pub(super) fn field(
        &mut self,
        v: &str,
        field: &str,
        n: &Node,
        qualified: String,
        is_param: bool,
    ) -> LVal {
        let fk = format!("{v}.{field}");
        // A copy of a parameter, or a callee's name for one (`P &q`,
        // `P q`), reads the parameter's fields whatever its syntax says.
        let (qualified, is_param) = match self.param_records.get(v) {
            Some(path) => (format!("{path}.{field}"), true),
            None => (qualified, is_param),
        };
        if is_param && n.ty().canonical().is_record() && !self.env.contains_key(&fk) {
            self.param_records.insert(fk.clone(), qualified.clone());
        }
        if !self.env.contains_key(&fk) {
            // Read before on a branch that has merged since.
            if let Some(g) = self.inputs.get(&fk) {
                self.env.insert(fk.clone(), g.clone());
                return LVal::Var(fk);
            }
            // A field a template's dependent type declares (`typename
            // Traits<T>::PtrType data_`) has its type in the instantiation.
            let ty = match n.ty() {
                t if is_param && t.is_dependent() => {
                    self.instantiated_field(&qualified).unwrap_or(t)
                }
                t => t,
            };
            if is_param && ty.is_integral() {
                let name = self.param(&qualified);
                self.env.insert(fk.clone(), Val::Int(Expr::Var(name)));
            } else if is_param && ty.is_floating() {
                self.env.insert(fk.clone(), Val::Uniform);
            } else if is_param
                && (ty.is_pointer() || ty.canonical().is_array() || has_array_type(n))
            {
                let name = qualified;
                self.add_array(&name, Scope::Global, loc_of(n));
                self.param_arrays.insert(name.clone(), None);
                let p = self.array_cells(name, vec![], self.cell_size(ty));
                self.env.insert(fk.clone(), Val::Ptr(p));
            } else if has_array_type(n) {
                // An array inside a thread's own structure
                // (`auto pi = p[i]; pi.acc[0]`): private, a
                // fresh one per copy of the structure.
                let name = self.name(&format!("{qualified}@private"));
                self.env.insert(
                    fk.clone(),
                    Val::Ptr(Ptr::new(Target::Private(name), vec![])),
                );
            }
            // A parameter's field is an input: first read on one branch,
            // it is the same value on the other, and after their merge.
            if is_param {
                if let Some(v) = self.env.get(&fk) {
                    self.inputs.insert(fk.clone(), v.clone());
                }
            }
        }
        LVal::Var(fk)
    }

    /// The type of the field a parameter's path names (`out.data_`), in the
    /// instantiation lowered.
    fn instantiated_field(&self, path: &str) -> Option<Ty> {
        let mut parts = path.split('.');
        let mut ty = *self.param_types.get(parts.next()?)?;
        for field in parts {
            ty = ty.field(field)?;
        }
        Some(ty)
    }

    /// A pointer to the start (`index`) of the kernel's array `name`,
    /// in cells of `cell` bytes, or of the narrower part the array is
    /// counted in (see `Lower::kernel`).
    pub(super) fn array_cells(&self, name: String, index: Vec<Expr>, cell: u64) -> Ptr {
        let bytes = self.cell_bytes.get(&name).copied();
        let mut p = Ptr::of_cells(Target::Shared(name), index, cell);
        if let Some(bytes) = bytes {
            p.cell = bytes;
        }
        p
    }

    /// The array and index a pointer-valued expression denotes.
    /// The pointer `n` evaluates to, seen through `n`'s own type (a cast
    /// around it changes the size of its elements).
    pub(super) fn pointer(&mut self, n: &Node) -> R<Option<Ptr>> {
        let ty = n.ty();
        let p = self.pointer_at(n)?;
        if let Some(p) = &p {
            self.note_view(ty, p);
        }
        Ok(p.map(|p| p.viewed_as(ty, &self.layouts)))
    }

    /// Records that `p`, into an array whose cells have a size the
    /// template leaves open, is seen as a pointer of type `ty`: its
    /// elements are what accesses and pointer arithmetic count in
    /// (`open_views`).
    pub(super) fn note_view(&mut self, ty: Ty, p: &Ptr) {
        let Ptr {
            target: Target::Shared(array),
            cell: 0,
            ..
        } = p
        else {
            return;
        };
        if !ty.is_pointer() {
            return;
        }
        let unqualified = |t: String| {
            t.trim_start_matches("const ")
                .trim_start_matches("volatile ")
                .to_string()
        };
        let pointee = ty.canonical().pointee();
        let key = unqualified(pointee.canonical().spelling());
        if key != "void" {
            let size = self.layouts.size_of(pointee);
            self.open_views
                .entry(array.clone())
                .or_default()
                .insert(key, (unqualified(ty.pointee().spelling()), size));
        }
    }

    pub(super) fn pointer_at(&mut self, n: &Node) -> R<Option<Ptr>> {
        let n = strip(*n);
        let k = n.kind();
        if k == K::DECL_REF || k == K::MEMBER_REF || k == K::ARRAY_SUBSCRIPT {
            let template =
                k == K::DECL_REF && n.referenced().and_then(|d| variable_template(&d)).is_some();
            if has_array_type(&n) || template {
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
            // `&a` of an array is where `a` starts, as `a` itself.
            if has_array_type(&strip(inner)) {
                return self.pointer_at(&inner);
            }
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

    /// Accesses every cell from `p` on that `bytes` bytes touch: one by one
    /// for a few, else as a loop.
    pub(super) fn cells(&mut self, p: &Ptr, bytes: &Expr, mode: Mode, loc: Loc) {
        match cell_count(p, bytes) {
            Expr::Int(n) if n <= MAX_WIDTH as i64 => {
                for k in 0..n.max(0) {
                    self.access(&at_cell(p, Expr::Int(k)), mode, loc);
                }
            }
            count => {
                let var = self.name("byte_cell");
                let q = at_cell(p, Expr::var(&var));
                self.access_each(var, count, None, &q, mode, loc);
            }
        }
    }

    /// An access of `q` for each value of `var` in `0..count`, where
    /// `guard` holds when given: a loop in the protocol.
    pub(super) fn access_each(
        &mut self,
        var: String,
        count: Expr,
        guard: Option<Cond>,
        q: &Ptr,
        mode: Mode,
        loc: Loc,
    ) {
        let Ok(((), mut body)) = self.capture(|me| {
            me.access(q, mode, loc);
            Ok(())
        }) else {
            return;
        };
        if let Some(cond) = guard {
            body = Stmt::If {
                cond,
                then: Box::new(body),
                els: Box::new(Stmt::skip()),
                loc,
            };
        }
        self.emit(Stmt::For {
            var,
            lo: Expr::Int(0),
            hi: count,
            body: Box::new(body),
            loc: self.place(loc),
        });
    }

    pub(super) fn access_somewhere(&mut self, mut p: Ptr, mode: Mode, loc: Loc) {
        for (_, q) in std::mem::take(&mut p.alts) {
            self.access_somewhere(q, mode, loc);
        }
        if matches!(p.target, Target::Shared(_)) {
            p.index = vec![self.local("offset")];
            self.access(&p, mode, loc);
        }
        if let (Target::Private(v), Mode::Write) = (&p.target, mode) {
            self.clobber_private(v, loc);
        }
    }

    /// A write through a pointer to a thread's own variable (`q = &n`,
    /// `&s.x`): the variable it is in, fields and all, takes values
    /// drfscan does not know, unless the write says which (`write`).
    fn clobber_private(&mut self, name: &str, loc: Loc) {
        self.alike.written(name);
        let root = name.split('.').next().unwrap_or(name);
        // A pointer variable written through its address (`pick(&p)`)
        // points anywhere; `clobber` would keep what it held.
        if matches!(self.env.get(root), Some(Val::Ptr(_))) {
            self.env.insert(root.to_string(), Val::Unknown);
            return;
        }
        let fields = format!("{root}.");
        if self.env.contains_key(root) || self.env.keys().any(|k| k.starts_with(&fields)) {
            self.clobber(&LVal::Var(root.to_string()), loc);
        }
    }
}

/// The field a member reference names. In a template, a member of an
/// object of a dependent type has no spelling of its own in clang's tree:
/// its last token (`n.s` is `s`) tells.
pub(super) fn member_name(n: &Node) -> String {
    let name = n.spelling();
    if !name.is_empty() {
        return name;
    }
    let toks = n.tokens();
    match toks.as_slice() {
        [.., (dot, _), (field, _)] if dot == "." || dot == "->" => field.clone(),
        _ => name,
    }
}

/// Whether `n` has an array type. A member of a struct whose field types
/// depend on template parameters (`u.data` with `scalar_t data[VEC]` in a
/// kernel lowered under a launch that leaves `scalar_t` open) has no type
/// of its own in clang's tree: its field's declaration tells.
pub(super) fn has_array_type(n: &Node) -> bool {
    if n.ty().is_array() {
        return true;
    }
    if n.kind() == K::ARRAY_SUBSCRIPT && n.ty().is_dependent() {
        return array_rank(n) > 0;
    }
    if n.kind() != K::MEMBER_REF || !n.ty().is_dependent() {
        return false;
    }
    let Some(record) = exprs(n)
        .into_iter()
        .next()
        .and_then(|b| strip(b).type_declaration())
    else {
        return false;
    };
    // clang spells no name for such a member: its last token is.
    let tokens = n.tokens();
    let field = match tokens.as_slice() {
        [.., (dot, _), (name, _)] if dot == "." || dot == "->" => name.clone(),
        _ => return false,
    };
    record
        .children()
        .into_iter()
        .any(|c| c.kind() == K::FIELD && c.spelling() == field && c.ty().is_array())
}

/// Whether every access of `array` in `out` that `counts` picks (by mode,
/// index and stored value) never reaches `cell` ([`apart`]).
pub(super) fn others_apart(
    out: &[Stmt],
    array: &str,
    cell: &[Expr],
    assumes: &[Cond],
    counts: impl Fn(Mode, &[Expr], &Option<Value>) -> bool,
) -> bool {
    let mut all = true;
    for s in out {
        s.each_access_under(&mut Vec::new(), &mut |s, under| {
            if let Stmt::Access {
                array: a,
                mode,
                index,
                value,
                ..
            } = s
            {
                if all && a == array && counts(*mode, index, value) {
                    all = apart(index, cell, under, assumes);
                }
            }
        });
    }
    all
}

/// Whether an access at `index`, under the conditions `under` (its
/// branches and loop ranges) and the kernel's `assumes` (its parameters'
/// domains), never reaches the cell `cell`: with thread and block ids
/// natural numbers and sizes at least 1, the solver finds no values that
/// make the two equal. The flag a last-block reduction keeps past the
/// partial sums it stores in the same `extern __shared__` array
/// (`shared[2 * C]` beside `shared[i]` for `i < C`).
pub(super) fn apart(index: &[Expr], cell: &[Expr], under: &[Cond], assumes: &[Cond]) -> bool {
    if index.len() != cell.len() {
        return false;
    }
    let mut conds: Vec<Cond> = under.iter().chain(assumes).cloned().collect();
    conds.extend(
        index
            .iter()
            .zip(cell)
            .map(|(i, c)| Cond::cmp(Rel::Eq, i.clone(), c.clone())),
    );
    let mut vars = BTreeSet::new();
    conds.iter().for_each(|c| c.free_vars(&mut vars));
    for v in &vars {
        let least = if builtin::is_dim(v) {
            1
        } else if builtin::is_builtin(v) {
            0
        } else {
            continue;
        };
        conds.push(Cond::cmp(Rel::Ge, Expr::var(v), Expr::Int(least)));
    }
    crate::smt::satisfiable(&conds, APART_MS) == Some(false)
}

/// The solver's time to show a write apart from a published cell.
const APART_MS: u64 = 50;

/// The cells of `p`'s array that `bytes` bytes from `p` cover, rounded up.
pub(super) fn cell_count(p: &Ptr, bytes: &Expr) -> Expr {
    let cell = i64::try_from(p.cell).unwrap_or(0);
    if cell > 1 {
        simplify(&Expr::bin(
            Op::Div,
            Expr::add(bytes.clone(), Expr::Int(cell - 1)),
            Expr::Int(cell),
        ))
    } else {
        simplify(bytes)
    }
}

/// Whether `n` calls a function that returns a reference: an lvalue.
fn returns_reference(n: &Node) -> bool {
    n.kind() == K::CALL
        && n.referenced()
            .is_some_and(|f| f.result_type().is_reference())
}

/// The braced initializer of the array variable `d`; its other children
/// are its sizes.
fn init_list<'t>(d: &Node<'t>) -> Option<Node<'t>> {
    exprs(d)
        .into_iter()
        .map(strip)
        .find(|e| e.kind() == K::INIT_LIST)
}

/// `p` moved `k` whole cells on, seen a cell at a time.
pub(super) fn at_cell(p: &Ptr, k: Expr) -> Ptr {
    let mut q = p.clone();
    q.elem = q.cell;
    q.advance(Op::Add, k);
    q
}

/// How many dimensions of an array `n` still has. In a template pattern
/// clang leaves a subscript of an array whose sizes are template
/// parameters without a type (`RC[i]` of `uint32_t RC[M][N][2]`); the
/// declaration's type still counts them.
fn array_rank(n: &Node) -> usize {
    let n = strip(*n);
    let rank = |mut t: Ty| {
        let mut r = 0;
        while t.is_array() {
            r += 1;
            t = t.element();
        }
        r
    };
    if !n.ty().is_dependent() {
        return rank(n.ty());
    }
    match n.kind() {
        K::ARRAY_SUBSCRIPT => exprs(&n)
            .first()
            .map_or(0, |b| array_rank(b).saturating_sub(1)),
        K::DECL_REF => n.referenced().map_or(0, |d| rank(d.ty())),
        _ => 0,
    }
}
