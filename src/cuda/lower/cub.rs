//! CUB's collectives, by class and member name, whether its headers are
//! the toolkit's or the built-in stub: a block-wide reduction or scan is a
//! store of each thread's cell of the temporary storage, the block's
//! barrier, and reads of any cell of it (which is what CUB's contract
//! says: the storage may be reused only after another barrier); a
//! warp-wide one is shuffles, with no memory and no barrier. The other
//! block-wide collectives move data through memory in ways drfscan does
//! not follow: unsupported.

use super::call::{class_name, object_node, past_namespaces};
use super::*;

/// The collectives drfscan models.
const MODELLED: [&str; 4] = ["BlockReduce", "BlockScan", "WarpReduce", "WarpScan"];

/// The collectives that move data through memory in ways drfscan does not
/// follow (but for `BlockLoad::Load` and `BlockStore::Store` of sizes and
/// an algorithm drfscan knows, [`Lower::cub_block_io`]).
const UNMODELLED: [&str; 13] = [
    "BlockLoad",
    "BlockStore",
    "BlockRadixSort",
    "BlockExchange",
    "BlockHistogram",
    "BlockDiscontinuity",
    "BlockAdjacentDifference",
    "BlockShuffle",
    "BlockMergeSort",
    "WarpExchange",
    "WarpLoad",
    "WarpStore",
    "WarpMergeSort",
];

/// The class of a CUB object type (`cub::BlockReduce<float, 256>`, with
/// the versioned namespace of the toolkit's headers) and its template
/// arguments.
fn class_of(ty: &str) -> Option<(&str, Vec<&str>)> {
    let rest = past_namespaces(ty.trim_start_matches("const ").strip_prefix("cub::")?);
    let (name, args) = match rest.split_once('<') {
        Some((name, args)) => (name, args.trim_end_matches([' ', '&']).strip_suffix('>')?),
        None => (rest.trim_end_matches([' ', '&']), ""),
    };
    let args = crate::cuda::launch::split_outside(args, &[('<', '>'), ('(', ')')])
        .into_iter()
        .map(str::trim)
        .collect();
    Some((name, args))
}

/// Whether a block-wide collective of the class with these template
/// arguments synchronizes the block: always, but for the raking
/// algorithms on a block of one warp, which run warp-synchronously (and,
/// to stay sound, on a block of a size drfscan cannot read).
fn synchronizes(class: &str, args: &[&str], constants: &HashMap<String, i64>) -> bool {
    // In a template analysed uninstantiated, sizes may be its parameters.
    let size = |a: &str| a.parse::<i64>().ok().or_else(|| constants.get(a).copied());
    let threads: Option<i64> = [1, 3, 4]
        .iter()
        .map(|&i| args.get(i).map_or(Some(1), |a| size(a)))
        .product();
    let raking = match args.get(2) {
        Some(a) => a.contains("RAKING"),
        // BlockScan's default algorithm rakes; BlockReduce's does not.
        None => class == "BlockScan",
    };
    !(raking && threads.is_none_or(|t| t <= builtin::WARP_SIZE))
}

/// Whether `f` is declared in CUB's namespace (or a versioned namespace
/// inside it).
fn in_cub(f: &Node) -> bool {
    let mut at = f.semantic_parent();
    for _ in 0..3 {
        match at {
            Some(p) if p.kind() == K::NAMESPACE && p.spelling() == "cub" => return true,
            Some(p) if p.kind() == K::NAMESPACE => at = p.semantic_parent(),
            _ => return false,
        }
    }
    false
}

/// Where a block collective's template arguments give the block's
/// length along x, y and z.
fn shape_arguments(class: &str) -> Option<[usize; 3]> {
    match class {
        "BlockReduce" | "BlockScan" => Some([1, 3, 4]),
        "BlockLoad" | "BlockStore" => Some([1, 4, 5]),
        _ => None,
    }
}

impl Lower {
    /// A block collective is written for a block of exactly the shape its
    /// class names (CUB's contract: `BLOCK_DIM_X` threads along x, one
    /// along y and z unless given): the kernel's block is that shape,
    /// unless a launch fixes an axis to another size, which is left to
    /// the analysis to see.
    fn assume_block_shape(&mut self, class: &str, args: &[&str]) {
        let Some(at) = shape_arguments(class) else {
            return;
        };
        let size = |a: &str| {
            a.parse::<i64>()
                .ok()
                .or_else(|| self.template_constants.get(a).copied())
        };
        let Some(shape) = at
            .iter()
            .map(|&i| args.get(i).map_or(Some(1), |a| size(a)))
            .collect::<Option<Vec<i64>>>()
        else {
            return;
        };
        let conflicts = builtin::BLOCK_DIM
            .iter()
            .zip(&shape)
            .any(|(d, n)| self.launch.iter().any(|(l, v)| l == d && v != n));
        if conflicts {
            return;
        }
        for (d, n) in builtin::BLOCK_DIM.iter().zip(shape) {
            let c = Cond::cmp(Rel::Eq, Expr::var(d), Expr::Int(n));
            if !self.prog.assumes.contains(&c) {
                self.prog.assumes.push(c);
            }
        }
    }

    /// A member call `n` (named `name`) on a CUB collective: its model, or
    /// `None` when the object is not one.
    pub(super) fn cub_collective(&mut self, n: &Node, name: &str) -> R<Option<Val>> {
        let Some(object) = object_node(n) else {
            return Ok(None);
        };
        let spelled = object.ty().canonical().spelling();
        let bare = spelled.trim_start_matches("const ");
        // Most member calls are on other classes: their name says so
        // before any declaration is looked at.
        let name_of = class_name(past_namespaces(bare.strip_prefix("cub::").unwrap_or(bare)));
        if !MODELLED.contains(&name_of) && !UNMODELLED.contains(&name_of) {
            return Ok(None);
        }
        // A class a template leaves open is spelled without its namespace;
        // its declaration, or the alias naming it, says where it is from.
        let declared_in_cub = || {
            object.type_declaration().is_some_and(|d| {
                in_cub(&d)
                    || d.specialized_template().is_some_and(|t| in_cub(&t))
                    || d.children()
                        .iter()
                        .any(|c| c.referenced().is_some_and(|r| in_cub(&r)))
            })
        };
        let ty = if bare.starts_with("cub::") {
            bare.to_string()
        } else if declared_in_cub() {
            format!("cub::{bare}")
        } else {
            return Ok(None);
        };
        let Some((class, args)) = class_of(&ty) else {
            return Ok(None);
        };
        self.assume_block_shape(class, &args);
        if matches!(
            (class, name),
            ("BlockLoad", "Load") | ("BlockStore", "Store")
        ) {
            if let Some(v) = self.cub_block_io(n, class, &args, &object)? {
                return Ok(Some(v));
            }
        }
        if UNMODELLED.contains(&class) {
            return unsupported(n, format!("cub::{class} is not modelled"));
        }
        let block = class.starts_with("Block");
        let loc = loc_of(n);
        let callee = n.referenced();
        let params: Vec<Node> = callee.map(|f| f.params()).unwrap_or_default();
        let operands: Vec<Node> = match callee {
            Some(_) => n.args(),
            None => exprs(n).into_iter().skip(1).collect(),
        };
        // Inputs are read before the collective, outputs written after. In
        // a template analysed uninstantiated the call names no member: a
        // scan's variables after its input may all be outputs.
        let scan = class.ends_with("Scan");
        let mut outputs = Vec::new();
        for (i, a) in operands.iter().enumerate() {
            let output = match callee {
                Some(_) => params.get(i).is_some_and(|p| {
                    let t = p.ty();
                    t.is_reference()
                        && !t.pointee().is_const_qualified()
                        && !t.pointee().is_record()
                }),
                None => {
                    let v = strip(*a);
                    scan && i > 0
                        && v.kind() == K::DECL_REF
                        && v.referenced()
                            .is_some_and(|d| d.kind() == K::VAR || d.kind() == K::PARM)
                        && !v.ty().is_record()
                }
            };
            if output {
                outputs.push(*a);
            } else {
                self.rvalue(a)?;
            }
        }
        if block && synchronizes(class, &args, &self.template_constants) {
            self.storage_contract(&object, Some(builtin::product(builtin::BLOCK_DIM)), loc)?;
        }
        for o in outputs {
            let lv = self.lvalue(&o)?;
            self.clobber(&lv, loc);
        }
        // A warp's broadcast hands every lane of a logical warp (the
        // class's second argument) the same value.
        if class == "WarpScan" && name == "Broadcast" {
            let lanes = args
                .get(1)
                .and_then(|a| a.parse().ok())
                .unwrap_or(builtin::WARP_SIZE);
            return Ok(Some(self.collective(Expr::Int(lanes))));
        }
        Ok(Some(Val::Unknown))
    }

    /// `BlockLoad<T, X, N, ALGORITHM, Y, Z>(temp).Load(p, items[, valid[,
    /// default]])` and `BlockStore<…>(temp).Store(p, items[, valid])`: the
    /// `N` items of the thread of linear id `t` are cells of `p`, blocked
    /// (`t * N + i`: the direct and vectorized algorithms), striped (`t + i
    /// * X * Y * Z`: striped and transpose) or warp-striped (`t / 32 * 32 *
    /// N + t % 32 + i * 32`: the warp transposes), below the valid count
    /// when one is given. A transpose exchanges the items through the
    /// temporary storage: a block's under its barrier (each thread stores
    /// its cell, every thread may read, as for the other collectives), a
    /// warp's within the warp (each thread its own cell). `None` when the
    /// sizes or the algorithm are not known.
    fn cub_block_io(
        &mut self,
        n: &Node,
        class: &str,
        args: &[&str],
        object: &Node,
    ) -> R<Option<Val>> {
        #[derive(PartialEq)]
        enum Arrangement {
            Blocked,
            Striped,
            WarpStriped,
        }
        let constants = &self.template_constants;
        let size = |a: &str| a.parse::<i64>().ok().or_else(|| constants.get(a).copied());
        let Some(count) = args.get(2).and_then(|a| size(a)) else {
            return Ok(None);
        };
        let threads: Option<i64> = [1, 4, 5]
            .iter()
            .map(|&i| args.get(i).map_or(Some(1), |a| size(a)))
            .product();
        let Some(threads) = threads else {
            return Ok(None);
        };
        // By name, or by number as the enumerations order them.
        let algorithm = args.get(3).copied().unwrap_or("DIRECT");
        let number: Option<i64> = algorithm
            .trim_end_matches(')')
            .rsplit(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|d| d.parse().ok());
        let named = |suffix: &str, k: i64| algorithm.ends_with(suffix) || number == Some(k);
        let (arrangement, block_exchange) = if named("_DIRECT", 0) || named("_VECTORIZE", 2) {
            (Arrangement::Blocked, None)
        } else if named("_STRIPED", 1) {
            (Arrangement::Striped, None)
        } else if named("_TRANSPOSE", 3) && !algorithm.contains("WARP") {
            (Arrangement::Striped, Some(true))
        } else if named("_WARP_TRANSPOSE", 4) || named("_WARP_TRANSPOSE_TIMESLICED", 5) {
            (Arrangement::WarpStriped, Some(false))
        } else if algorithm == "DIRECT" {
            (Arrangement::Blocked, None)
        } else {
            return Ok(None);
        };
        if arrangement == Arrangement::WarpStriped && threads % builtin::WARP_SIZE != 0 {
            return Ok(None);
        }
        let operands: Vec<Node> = match n.referenced() {
            Some(_) => n.args(),
            None => exprs(n).into_iter().skip(1).collect(),
        };
        let [itr, items, rest @ ..] = &operands[..] else {
            return Ok(None);
        };
        let loc = loc_of(n);
        let mode = if class == "BlockLoad" {
            Mode::Read
        } else {
            Mode::Write
        };
        let (p, valid) = self.cub_io_operands(n, itr, rest)?;
        let exchange = |me: &mut Self| -> R<()> {
            match block_exchange {
                Some(block) => {
                    me.storage_contract(object, block.then_some(Expr::Int(threads)), loc)
                }
                None => Ok(()),
            }
        };
        if mode == Mode::Write {
            self.rvalue(items)?;
            exchange(self)?;
        }
        let t = linear_tid();
        let i = self.name("item");
        let warp = Expr::Int(builtin::WARP_SIZE);
        let rank = match arrangement {
            Arrangement::Blocked => {
                Expr::add(Expr::bin(Op::Mul, t, Expr::Int(count)), Expr::var(&i))
            }
            Arrangement::Striped => {
                Expr::add(t, Expr::bin(Op::Mul, Expr::var(&i), Expr::Int(threads)))
            }
            Arrangement::WarpStriped => Expr::add(
                Expr::add(
                    Expr::bin(
                        Op::Mul,
                        Expr::bin(Op::Div, t.clone(), warp.clone()),
                        Expr::Int(builtin::WARP_SIZE * count),
                    ),
                    Expr::bin(Op::Mod, t, warp.clone()),
                ),
                Expr::bin(Op::Mul, Expr::var(&i), warp),
            ),
        };
        let q = memory::at_cell(&p, rank.clone());
        let guard = valid.map(|v| Cond::cmp(Rel::Lt, rank, v));
        self.access_each(i, Expr::Int(count), guard, &q, mode, loc);
        if mode == Mode::Read {
            exchange(self)?;
            let lv = self.lvalue(items)?;
            self.clobber(&lv, loc);
        }
        Ok(Some(Val::Unknown))
    }

    /// The memory a CUB load or store reaches through `itr`, and the valid
    /// item count its first optional operand gives; the rest (an
    /// out-of-bounds default) are only evaluated.
    fn cub_io_operands(&mut self, n: &Node, itr: &Node, rest: &[Node]) -> R<(Ptr, Option<Expr>)> {
        let valid = match rest.first() {
            Some(v) => Some(self.int(v, "valid_items")?),
            None => None,
        };
        for r in rest.iter().skip(1) {
            self.rvalue(r)?;
        }
        let Some(p) = self.pointer(itr)? else {
            return unsupported(n, "access through a pointer of unknown origin");
        };
        Ok((p, valid))
    }

    /// `cub::LoadDirectBlocked(t, p, items)` and its striped and storing
    /// kin (`f`, called as `n`): each item of thread `t` is one cell of
    /// `p`, blocked (`t * N + i`) or striped (`t + i * BLOCK_THREADS`),
    /// only below the valid count when one is given. `None` for other
    /// functions.
    pub(super) fn cub_direct(
        &mut self,
        f: &Node,
        n: &Node,
        name: &str,
        args: &[Node],
    ) -> R<Option<Val>> {
        let (mode, striped) = match name {
            "LoadDirectBlocked" => (Mode::Read, false),
            "LoadDirectStriped" => (Mode::Read, true),
            "StoreDirectBlocked" => (Mode::Write, false),
            "StoreDirectStriped" => (Mode::Write, true),
            _ => return Ok(None),
        };
        if !in_cub(f) {
            return Ok(None);
        }
        let [tid, itr, items, rest @ ..] = args else {
            return Ok(None);
        };
        let loc = loc_of(n);
        let Some(count) = strip(*items).ty().array_size() else {
            return unsupported(n, format!("cub::{name} on items of unknown count"));
        };
        let block = match (striped, f.template_args().first()) {
            (false, _) => 0,
            (true, Some(Ok(b))) => *b,
            (true, _) => return unsupported(n, format!("cub::{name} of an unknown block size")),
        };
        let t = self.int(tid, "linear_tid")?;
        let (p, valid) = self.cub_io_operands(n, itr, rest)?;
        let i = self.name("item");
        let at = if striped {
            Expr::add(t, Expr::bin(Op::Mul, Expr::var(&i), Expr::Int(block)))
        } else {
            Expr::add(Expr::bin(Op::Mul, t, Expr::Int(count)), Expr::var(&i))
        };
        let q = memory::at_cell(&p, at.clone());
        let guard = valid.map(|v| Cond::cmp(Rel::Lt, at, v));
        self.access_each(i, Expr::Int(count), guard, &q, mode, loc);
        if mode == Mode::Read {
            let lv = self.lvalue(items)?;
            self.clobber(&lv, loc);
        }
        Ok(Some(Val::Unknown))
    }

    /// CUB's contract on the temporary storage of `object`: each thread
    /// stores its cell; with `threads` (a block-wide exchange), the block
    /// synchronizes and any of its threads' cells may be read.
    fn storage_contract(&mut self, object: &Node, threads: Option<Expr>, loc: Loc) -> R<()> {
        let storage = self.cub_storage(object)?;
        if let Some(p) = &storage {
            // Which threads touch which cells is CUB's business: a race on
            // the storage is one of its contract, its two threads not
            // necessarily those that meet.
            self.approximate(
                "CUB's temporary storage is modelled by its contract: each thread stores, every thread may read",
            );
            self.access(&memory::at_cell(p, linear_tid()), Mode::Write, loc);
        }
        let Some(threads) = threads else {
            return Ok(());
        };
        self.sync(loc);
        if let Some(p) = &storage {
            let k = self.name("storage_cell");
            let q = memory::at_cell(p, Expr::var(&k));
            self.access_each(k, threads, None, &q, Mode::Read, loc);
        }
        Ok(())
    }

    /// The temporary storage a CUB object was made on
    /// (`BlockReduce(temp)`, or a variable made so): the memory it names,
    /// if drfscan knows it. `None` for an object made without one, whose
    /// storage is CUB's own.
    fn cub_storage(&mut self, object: &Node) -> R<Option<Ptr>> {
        let class = object.ty().canonical().spelling();
        let mut at = *object;
        for _ in 0..8 {
            let inner = exprs(&at);
            // The construction (`BlockReduce(temp)`, unresolved in a
            // template): its one operand of another type is the storage.
            let made =
                at.kind() == K::CALL && at.referenced().is_some_and(|c| c.kind() == K::CONSTRUCTOR);
            let unresolved = (matches!(at.kind(), K::UNEXPOSED | K::FUNCTIONAL_CAST)
                || (at.kind() == K::CALL && at.referenced().is_none()))
                && at.ty().canonical().spelling() == class;
            if let [storage] = inner[..] {
                if (made || unresolved) && storage.ty().canonical().spelling() != class {
                    return Ok(match self.lvalue(&storage)? {
                        LVal::Mem(p) => Some(p),
                        _ => None,
                    });
                }
            }
            // A variable of the class: what it was made from.
            if at.kind() == K::DECL_REF {
                match at.referenced().filter(|d| d.kind() == K::VAR) {
                    Some(d) => match exprs(&d).last() {
                        Some(init) => at = *init,
                        None => return Ok(None),
                    },
                    None => return Ok(None),
                }
                continue;
            }
            match inner[..] {
                [one] => at = one,
                _ => return Ok(None),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_their_template_arguments() {
        let (c, a) =
            class_of("cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 1, 1, 0>")
                .unwrap();
        assert_eq!((c, a.len(), a[1]), ("BlockReduce", 6, "256"));
        let none = HashMap::new();
        assert!(synchronizes(c, &a, &none));
        let (c, a) = class_of("cub::CUB_200700_SM_750_NS::BlockScan<int, 32>").unwrap();
        assert_eq!(c, "BlockScan");
        assert!(!synchronizes(c, &a, &none), "a raking scan of one warp");
        let (c, a) = class_of("cub::BlockScan<int, 32, cub::BLOCK_SCAN_WARP_SCANS>").unwrap();
        assert!(synchronizes(c, &a, &none));
        let (c, a) = class_of("cub::BlockScan<int, 16, cub::BLOCK_SCAN_RAKING, 4>").unwrap();
        assert!(synchronizes(c, &a, &none), "64 threads");
        let (c, a) = class_of("cub::BlockScan<int, THREADS>").unwrap();
        let one_warp = HashMap::from([("THREADS".to_string(), 32)]);
        assert!(!synchronizes(c, &a, &one_warp), "a template's one warp");
        assert!(
            !synchronizes(c, &a, &none),
            "a raking scan of unknown size may not"
        );
        let (c, a) = class_of("cub::BlockReduce<int, THREADS>").unwrap();
        assert!(synchronizes(c, &a, &none), "warp reductions always do");
        assert_eq!(class_of("cub::Sum").map(|c| c.0), Some("Sum"));
        assert!(class_of("cooperative_groups::thread_block").is_none());
    }
}
