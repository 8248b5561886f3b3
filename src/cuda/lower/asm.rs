//! Inline PTX (`asm("…" : outputs : inputs : clobbers)`).
//!
//! What a statement does to memory decides whether it can be modelled.
//! Instructions that only compute on registers (arithmetic, conversions,
//! `mma.sync`, shuffles and votes, fences) touch no memory: their outputs
//! take values drfscan does not know, except the special registers a
//! thread reads its own ids from (`mov.u32 %0, %%laneid;`), which take
//! their exact values. Asynchronous copies into shared memory,
//! `ldmatrix` and `stmatrix` are accesses of the shared addresses they name,
//! and so are loads, stores, atomics and reductions (`ld`, `st`, `atom`,
//! `red`) of global, shared or generic addresses ([`memory_op`]), under
//! their guard when predicated (`@p ld…`, [`predicate_of`]); `bar.sync 0`
//! is the block's barrier. Any other instruction that may load, store,
//! copy, branch or wait at a barrier (one with a thread count) keeps the
//! statement unsupported.

use super::memory::Ptr;
use super::{loc_of, unsupported, Jumps, Lower, Node, Val, R};
use crate::protocol::{builtin, Cond, Expr, Mode, Rel};

/// One `asm` statement, read from its source text.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Asm {
    /// The instructions, one per entry, operands as written (`%0`,
    /// `%%laneid`).
    pub instructions: Vec<String>,
    /// The constraints of the outputs, then of the inputs, in the order
    /// of the statement's operand expressions.
    pub constraints: Vec<String>,
    pub outputs: usize,
}

/// Reads `asm volatile ("…" "…" : "=r" (x) : "r" (y) : "memory");` from
/// the start of its source text. `None` unless the template is string
/// literals only and every operand a constraint string with its
/// expression in parentheses: a template built with macros is not read.
pub(super) fn parse(text: &str) -> Option<Asm> {
    let rest = text.trim_start();
    let rest = rest
        .strip_prefix("__asm__")
        .or_else(|| rest.strip_prefix("__asm"))
        .or_else(|| rest.strip_prefix("asm"))?
        .trim_start();
    let rest = ["__volatile__", "volatile"]
        .iter()
        .find_map(|q| rest.strip_prefix(q))
        .unwrap_or(rest)
        .trim_start();
    let body = rest.strip_prefix('(')?;
    // Sections split at top-level colons: template, outputs, inputs,
    // clobbers. Per section, its strings and its parenthesised operands.
    let mut sections: Vec<(Vec<String>, usize)> = vec![(Vec::new(), 0)];
    let mut chars = body.chars().peekable();
    let mut depth = 0usize;
    loop {
        let c = chars.next()?;
        let in_operands = sections.len() > 1;
        let (strings, groups) = sections.last_mut()?;
        match c {
            // Comments between a template's strings or operands.
            '/' if chars.peek() == Some(&'/') => {
                chars.find(|&c| c == '\n')?;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                loop {
                    let c = chars.next()?;
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut lit = String::new();
                loop {
                    match chars.next()? {
                        '\\' => match chars.next()? {
                            'n' => lit.push('\n'),
                            't' => lit.push('\t'),
                            '\n' => {}
                            other => lit.push(other),
                        },
                        '"' => break,
                        c => lit.push(c),
                    }
                }
                if depth == 0 {
                    strings.push(lit);
                }
            }
            '(' => {
                if depth == 0 {
                    *groups += 1;
                }
                depth += 1;
            }
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ':' if depth == 0 => sections.push((Vec::new(), 0)),
            // A macro's line continuations.
            c if depth == 0 && (c.is_whitespace() || c == '\\' || c == ',') => {}
            _ if depth > 0 => {}
            // The toolkit's constraint of a 64-bit pointer operand
            // (`__LDG_PTR (p)`, `"l"` in its headers).
            c if (c.is_ascii_alphabetic() || c == '_') && in_operands => {
                let mut word = String::from(c);
                while let Some(&n) = chars
                    .peek()
                    .filter(|n| n.is_ascii_alphanumeric() || **n == '_')
                {
                    word.push(n);
                    chars.next();
                }
                if word != "__LDG_PTR" {
                    return None;
                }
                strings.push("l".to_string());
            }
            // Anything else in the template (a macro) or in front of an
            // operand's constraint.
            _ => return None,
        }
    }
    let (template, template_groups) = sections.first()?;
    if template.is_empty() || *template_groups != 0 || sections.len() > 4 {
        return None;
    }
    let mut constraints = Vec::new();
    let mut outputs = 0;
    for (k, (strings, groups)) in sections.iter().enumerate().skip(1).take(2) {
        if strings.len() != *groups {
            return None;
        }
        if k == 1 {
            outputs = strings.len();
        }
        constraints.extend(strings.iter().cloned());
    }
    let instructions = template
        .concat()
        .split([';', '\n'])
        .map(|i| i.trim().trim_matches(['{', '}']).trim().to_string())
        .filter(|i| !i.is_empty() && !i.starts_with("//"))
        .collect();
    Some(Asm {
        instructions,
        constraints,
        outputs,
    })
}

/// Opcodes (the part before the first `.`) that read and write registers
/// only, or order memory without accessing it (`fence`, `membar`).
const REGISTER_ONLY: &[&str] = &[
    "abs",
    "activemask",
    "add",
    "addc",
    "and",
    "bfe",
    "bfi",
    "bfind",
    "bmsk",
    "brev",
    "clz",
    "cnot",
    "copysign",
    "cos",
    "cvt",
    "cvta",
    "div",
    "dp2a",
    "dp4a",
    "elect",
    "ex2",
    "fence",
    "fma",
    "fns",
    "isspacep",
    "lg2",
    "lop3",
    "mad",
    "mad24",
    "madc",
    "match",
    "max",
    "membar",
    "min",
    "mma",
    "mov",
    "mul",
    "mul24",
    "nanosleep",
    "neg",
    "not",
    "or",
    "popc",
    "prmt",
    "rcp",
    "redux",
    "rem",
    "rsqrt",
    "sad",
    "selp",
    "set",
    "setp",
    "shf",
    "shfl",
    "shl",
    "shr",
    "sin",
    "slct",
    "sqrt",
    "sub",
    "subc",
    "tanh",
    "testp",
    // Video instructions: byte and halfword arithmetic on registers.
    "vabsdiff",
    "vabsdiff2",
    "vabsdiff4",
    "vadd",
    "vadd2",
    "vadd4",
    "vavrg2",
    "vavrg4",
    "vmad",
    "vmax",
    "vmax2",
    "vmax4",
    "vmin",
    "vmin2",
    "vmin4",
    "vote",
    "vset",
    "vset2",
    "vset4",
    "vshl",
    "vshr",
    "vsub",
    "vsub2",
    "vsub4",
    "xor",
];

/// What an instruction drfscan models does to memory through its
/// address operands (operand numbers, `[%k]`).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum MemoryOp {
    /// `cp.async.{ca,cg}.shared.global [%d], [%s], n`: `n` bytes (a
    /// literal, or an operand `%k`) read at `s` and written at `d`.
    Copy { dst: usize, src: usize, bytes: Size },
    /// `ldmatrix.sync.aligned.… {…}, [%a]` and `stmatrix.sync.aligned.…
    /// [%a], {…}`: each of the first `lanes` lanes of the warp (8 rows per
    /// matrix, `.x1`, `.x2`, `.x4`) reads or writes the row of 16 bytes its
    /// address names; the others' addresses are not used.
    Rows {
        address: usize,
        mode: Mode,
        lanes: i64,
    },
    /// `cp.async.commit_group`, `cp.async.wait_group n`,
    /// `cp.async.wait_all`: waits on the thread's own copies, which order
    /// nothing between threads.
    Wait,
    /// `bar.sync a` and `barrier.sync a` without a thread count: every
    /// thread of the block waits there, as at `__syncthreads()`. With a
    /// count only some warps take part, which is not modelled.
    Barrier,
    /// `ld`, `st`, `atom` and `red` on global, shared or generic
    /// addresses: `bytes` bytes at `[%address+offset]` (`offset` in
    /// bytes, usually 0), read, written, or updated
    /// atomically. Loads and stores with a memory order (`.relaxed`,
    /// `.acquire`, `.release`, `.volatile`) are strong in PTX's memory
    /// model: they do not race with one another, as atomics. As atomics,
    /// an ordered load is also taken to conflict with a plain read, which
    /// over-approximates.
    Access {
        address: usize,
        offset: i64,
        mode: Mode,
        bytes: i64,
    },
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Size {
    Bytes(i64),
    Operand(usize),
}

/// The memory instruction `i` is, when drfscan models it.
pub(super) fn memory_op(i: &str) -> Option<MemoryOp> {
    let (op, operands) = i.split_once(char::is_whitespace).unwrap_or((i, ""));
    if op == "cp.async.commit_group" || op == "cp.async.wait_all" || op == "cp.async.wait_group" {
        return Some(MemoryOp::Wait);
    }
    let barrier = [
        "bar.sync",
        "bar.cta.sync",
        "barrier.sync",
        "barrier.sync.aligned",
    ];
    let id = operands.trim().trim_end_matches(';').trim();
    if barrier.contains(&op) && !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
        return Some(MemoryOp::Barrier);
    }
    if op.starts_with("cp.async.ca.shared.global") || op.starts_with("cp.async.cg.shared.global") {
        let parts: Vec<&str> = operands.split(',').collect();
        let (dst, src, size) = match parts.as_slice() {
            [d, s, n] | [d, s, n, _] => (*d, *s, n.trim()),
            _ => return None,
        };
        let bytes = match size.parse::<i64>() {
            Ok(n) => Size::Bytes(n),
            Err(_) => Size::Operand(operand(size)?),
        };
        return Some(MemoryOp::Copy {
            dst: address(dst)?,
            src: address(src)?,
            bytes,
        });
    }
    let lanes = || {
        let matrices = [(".x1", 1), (".x2", 2), (".x4", 4)]
            .into_iter()
            .find(|(x, _)| op.contains(x))
            .map_or(4, |(_, n)| n);
        8 * matrices
    };
    let row = |text: &str, mode| {
        address(text).map(|address| MemoryOp::Rows {
            address,
            mode,
            lanes: lanes(),
        })
    };
    if let Some(access) = plain_access(op, operands) {
        return Some(access);
    }
    if op.starts_with("ldmatrix.sync.aligned.") && op.contains(".shared") {
        let (_, address) = operands.rsplit_once(',')?;
        return row(address, Mode::Read);
    }
    if op.starts_with("stmatrix.sync.aligned.") && op.contains(".shared") {
        let (address, _) = operands.split_once(',')?;
        return row(address, Mode::Write);
    }
    None
}

/// The guard of a predicated instruction (`@p ld…`, `@!p st…`): the
/// predicate, whether it is negated, and the instruction it guards.
pub(super) fn guarded(i: &str) -> Option<(&str, bool, &str)> {
    let rest = i.strip_prefix('@')?;
    let (negated, rest) = match rest.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (pred, op) = rest.split_once(char::is_whitespace)?;
    Some((pred, negated, op.trim_start()))
}

/// How the statement sets the predicate `pred` when one instruction
/// does, from an operand and an integer (`setp.ne.b32 p, %5, 0`): the
/// operand's number, the relation and the integer, the operand on the
/// left.
pub(super) fn predicate_of(asm: &Asm, pred: &str) -> Option<(usize, Rel, i64)> {
    // The instructions that write it: their first operand.
    let writers: Vec<&str> = asm
        .instructions
        .iter()
        .map(|i| guarded(i).map_or(i.as_str(), |(_, _, op)| op))
        .filter(|i| {
            i.split_once(char::is_whitespace)
                .and_then(|(_, ops)| ops.split(',').next())
                .is_some_and(|first| first.split('|').any(|p| p.trim() == pred))
        })
        .collect();
    let [only] = writers.as_slice() else {
        return None;
    };
    let (op, operands) = only.split_once(char::is_whitespace)?;
    let parts: Vec<&str> = op.split('.').collect();
    let ["setp", cmp, _] = parts.as_slice() else {
        return None;
    };
    let rel = match *cmp {
        "eq" => Rel::Eq,
        "ne" => Rel::Ne,
        "lt" | "lo" => Rel::Lt,
        "le" | "ls" => Rel::Le,
        "gt" | "hi" => Rel::Gt,
        "ge" | "hs" => Rel::Ge,
        _ => return None,
    };
    let operands: Vec<&str> = operands.split(',').map(str::trim).collect();
    let [_, a, b] = operands.as_slice() else {
        return None;
    };
    let int = |t: &str| t.parse::<i64>().ok();
    match (operand(a), int(b), operand(b), int(a)) {
        (Some(k), Some(n), _, _) => Some((k, rel, n)),
        (_, _, Some(k), Some(n)) => Some((k, rel.flip(), n)),
        _ => None,
    }
}

/// The number `k` of an operand `%k`.
fn operand(text: &str) -> Option<usize> {
    text.trim().strip_prefix('%')?.parse().ok()
}

/// The number `k` of an address operand `[%k]` (no offset).
fn address(text: &str) -> Option<usize> {
    address_with_offset(text).and_then(|(k, offset)| (offset == 0).then_some(k))
}

/// The number `k` and the byte offset `n` of an address operand `[%k]`,
/// `[%k+n]` or `[%k-n]` (`n` decimal or `0x` hexadecimal; PTX reads `010`
/// as octal and `0b10` as binary, which are left unread).
fn address_with_offset(text: &str) -> Option<(usize, i64)> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    let Some(at) = inner.find(['+', '-']) else {
        return Some((operand(inner)?, 0));
    };
    let (reg, rest) = inner.split_at(at);
    let (negative, digits) = match rest.strip_prefix('+') {
        Some(d) => match d.trim().strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, d),
        },
        None => (true, &rest[1..]),
    };
    let digits = digits.trim();
    let n = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None if digits.len() > 1 && digits.starts_with('0') => return None,
        None => digits.parse().ok()?,
    };
    Some((operand(reg)?, if negative { -n } else { n }))
}

/// `ld`, `st`, `atom` or `red` ([`MemoryOp::Access`]) with a plain
/// address operand (`[%k]`, no offset) in a state space drfscan has
/// arrays for, and a width it can read from the type.
fn plain_access(op: &str, operands: &str) -> Option<MemoryOp> {
    let parts: Vec<&str> = op.split('.').collect();
    let (&base, qualifiers) = parts.split_first()?;
    let foreign = ["local", "param", "const", "shared::cluster", "tex"];
    if qualifiers.iter().any(|q| foreign.contains(q)) {
        return None;
    }
    let ordered = qualifiers
        .iter()
        .any(|q| ["relaxed", "acquire", "release", "volatile", "sc", "acq_rel"].contains(q));
    let mode = match base {
        "ld" | "st" if ordered => Mode::Atomic,
        "ld" => Mode::Read,
        "st" => Mode::Write,
        "atom" | "red" => Mode::Atomic,
        _ => return None,
    };
    // The address is a load's last operand (after a vector's registers in
    // braces), a store's or reduction's first, an atomic's second.
    let operands: Vec<&str> = operands.split(',').map(str::trim).collect();
    let at = match base {
        "ld" => operands.iter().rev().find(|o| o.starts_with('['))?,
        "atom" => operands.get(1)?,
        _ => operands.first()?,
    };
    let (address, offset) = address_with_offset(at)?;
    let width = qualifiers.iter().rev().find_map(|q| {
        let (kind, rest) = q.split_at(1.min(q.len()));
        if !["b", "u", "s", "f"].contains(&kind) {
            return None;
        }
        let (bits, pair) = match rest.strip_suffix("x2") {
            Some(bits) => (bits, 2),
            None => (rest, 1),
        };
        let bits: i64 = bits.parse().ok()?;
        (bits % 8 == 0).then_some(bits / 8 * pair)
    })?;
    let lanes = qualifiers
        .iter()
        .find_map(|q| q.strip_prefix('v')?.parse::<i64>().ok())
        .unwrap_or(1);
    Some(MemoryOp::Access {
        address,
        offset,
        mode,
        bytes: width * lanes,
    })
}

/// The first instruction that may do more than compute on registers.
pub(super) fn beyond_registers(asm: &Asm) -> Option<&str> {
    asm.instructions.iter().map(String::as_str).find(|i| {
        let unguarded = guarded(i).map_or(*i, |(_, _, op)| op);
        if memory_op(unguarded).is_some() {
            return false;
        }
        // Register declarations inside a `{ … }` scope.
        if i.starts_with(".reg") {
            return false;
        }
        let words = i.trim_start_matches(|c: char| c == '@' || c == '!');
        // A guard predicate (`@p add …`) comes first.
        let op = if i.starts_with('@') {
            words.split_whitespace().nth(1)
        } else {
            words.split_whitespace().next()
        };
        let base = op.map(|op| op.split('.').next().unwrap_or(op));
        // Memory operands are in brackets; a label ends in a colon.
        !base.is_some_and(|b| REGISTER_ONLY.contains(&b)) || i.contains('[') || i.ends_with(':')
    })
}

/// The value an output operand `%k` takes when the statement is a single
/// `mov` from a special register a thread knows: its ids, its lane and the
/// mask of the lanes below it.
pub(super) fn special_register(asm: &Asm, k: usize) -> Option<Expr> {
    let [only] = asm.instructions.as_slice() else {
        return None;
    };
    let (op, operands) = only.split_once(char::is_whitespace)?;
    if !op.starts_with("mov.") {
        return None;
    }
    let (dst, src) = operands.split_once(',')?;
    if dst.trim() != format!("%{k}") {
        return None;
    }
    let src = src.trim().strip_prefix("%%")?;
    let axis = |name: &str| {
        let (reg, d) = src.split_once('.')?;
        let d = ["x", "y", "z"].iter().position(|a| *a == d)?;
        (reg == name).then_some(d)
    };
    if src == "laneid" {
        return Some(super::call::lane());
    }
    if src == "lanemask_lt" {
        return Some(super::call::lanes_below());
    }
    let (names, d) = [
        (&builtin::TID, axis("tid")),
        (&builtin::BLOCK_DIM, axis("ntid")),
        (&builtin::BID, axis("ctaid")),
        (&builtin::GRID_DIM, axis("nctaid")),
    ]
    .into_iter()
    .find_map(|(names, d)| d.map(|d| (names, d)))?;
    Some(Expr::var(names[d]))
}

impl Lower {
    /// An `asm` statement: its inputs are read, its outputs (read first
    /// when they are also inputs, `"+r"`) take the values its instructions
    /// give them.
    pub(super) fn inline_asm(&mut self, s: &Node) -> R<Jumps> {
        let Some(asm) = s.written_text(1 << 16).as_deref().and_then(parse) else {
            return unsupported(s, "inline assembly that drfscan cannot read");
        };
        if let Some(i) = beyond_registers(&asm) {
            return unsupported(s, format!("inline assembly (`{i}`)"));
        }
        let operands = s.children();
        if operands.len() != asm.constraints.len() {
            return unsupported(s, "inline assembly that drfscan cannot read");
        }
        let loc = loc_of(s);
        // The addresses of the memory instructions, as pointers: an
        // operand of unknown origin leaves the statement unsupported.
        let mut addressed: Vec<(MemoryOp, Vec<Ptr>, Option<Cond>)> = Vec::new();
        // Inputs that set a guard, evaluated once.
        let mut guard_inputs: std::collections::HashMap<usize, Val> = Default::default();
        for i in &asm.instructions {
            let (text, guard) = match guarded(i) {
                Some((pred, negated, op)) => (op, Some((pred, negated))),
                None => (i.as_str(), None),
            };
            let Some(m) = memory_op(text) else { continue };
            // `@p ld…` happens where the predicate holds: the comparison
            // of an input that sets it (`setp.ne.b32 p, %5, 0`), else a
            // condition of the thread's own drfscan does not know.
            let guard = match guard {
                None => None,
                Some((pred, negated)) => {
                    let set = predicate_of(&asm, pred)
                        .filter(|(k, _, _)| *k >= asm.outputs && *k < operands.len());
                    if let Some((k, _, _)) = set {
                        if !guard_inputs.contains_key(&k) {
                            let v = self.rvalue(&operands[k])?;
                            guard_inputs.insert(k, v);
                        }
                    }
                    let c = match set {
                        Some((k, rel, n)) => match guard_inputs[&k].clone() {
                            // A flag's truth, `(int)flag != 0`, as a condition.
                            Val::Int(e) if n == 0 && rel == Rel::Ne => super::expr::as_cond(&e),
                            Val::Int(e) if n == 0 && rel == Rel::Eq => {
                                Cond::not(super::expr::as_cond(&e))
                            }
                            Val::Int(e) => Cond::cmp(rel, e, Expr::Int(n)),
                            _ => Cond::cmp(rel, self.local("guard"), Expr::Int(n)),
                        },
                        None => Cond::cmp(Rel::Ne, self.local("guard"), Expr::Int(0)),
                    };
                    Some(if negated { Cond::not(c) } else { c })
                }
            };
            let wanted = match &m {
                MemoryOp::Copy { dst, src, .. } => vec![*dst, *src],
                MemoryOp::Rows { address, .. } | MemoryOp::Access { address, .. } => {
                    vec![*address]
                }
                MemoryOp::Wait | MemoryOp::Barrier => Vec::new(),
            };
            let mut ptrs = Vec::new();
            for k in wanted {
                let Some(operand) = operands.get(k) else {
                    return unsupported(s, "inline assembly that drfscan cannot read");
                };
                match self.pointer(operand)? {
                    Some(p) => ptrs.push(p),
                    None => {
                        return unsupported(
                            s,
                            format!("inline assembly (`{i}`) on an address of unknown origin"),
                        )
                    }
                }
            }
            addressed.push((m, ptrs, guard));
        }
        for (m, ptrs, guard) in &addressed {
            let effect = |me: &mut Self| -> R<Jumps> {
                me.memory_effect(s, m, ptrs, &operands, loc)?;
                Ok(Jumps::none())
            };
            match guard {
                Some(g) => self.branches(g.clone(), effect, |_| Ok(Jumps::none()), loc)?,
                None => effect(self)?,
            };
        }
        for (k, (operand, constraint)) in operands.iter().zip(&asm.constraints).enumerate() {
            if k >= asm.outputs {
                // Addresses were taken above; reading a pointer again
                // touches no memory. Guards' inputs were read there too.
                if !guard_inputs.contains_key(&k) {
                    self.rvalue(operand)?;
                }
                continue;
            }
            let lv = self.lvalue(operand)?;
            match special_register(&asm, k) {
                Some(e) => self.store(&lv, Val::Int(e), loc),
                None => self.assign_unknown(&lv, constraint.starts_with('+'), loc),
            }
        }
        Ok(Jumps::none())
    }

    /// The accesses one memory instruction of the statement `s` makes at
    /// the pointers its address operands hold.
    fn memory_effect(
        &mut self,
        s: &Node,
        m: &MemoryOp,
        ptrs: &[Ptr],
        operands: &[Node],
        loc: super::Loc,
    ) -> R<()> {
        match (m, ptrs) {
            (MemoryOp::Copy { bytes, .. }, [dst, src]) => {
                let bytes = match bytes {
                    Size::Bytes(n) => Some(*n),
                    Size::Operand(k) => operands.get(*k).and_then(|o| o.eval_int()),
                };
                let Some(bytes) = bytes else {
                    return unsupported(
                        s,
                        "inline assembly copying a number of bytes drfscan does not know",
                    );
                };
                self.cells(src, &Expr::Int(bytes), Mode::Read, loc);
                self.cells(dst, &Expr::Int(bytes), Mode::Write, loc);
            }
            (
                MemoryOp::Access {
                    offset,
                    mode,
                    bytes,
                    ..
                },
                [at],
            ) => {
                // `[%k+16]`: the cells the bytes from the offset on
                // touch, counted from the operand's cell (a whole
                // number of them from a pointer inside a cell).
                let cell = i64::try_from(at.cell).unwrap_or(0);
                let (n, bytes) = (*offset, *bytes);
                let (at, bytes) = match n {
                    0 => (at.clone(), bytes),
                    n if cell > 0 && !at.rounded && (at.part == 0 || n % cell == 0) => {
                        let first = n.div_euclid(cell);
                        let end = (n + bytes + cell - 1).div_euclid(cell);
                        let q = super::memory::at_cell(at, Expr::Int(first));
                        (q, (end - first) * cell)
                    }
                    _ => {
                        return unsupported(
                            s,
                            "inline assembly at a byte offset drfscan cannot place in the array's cells",
                        )
                    }
                };
                self.cells(&at, &Expr::Int(bytes), *mode, loc);
            }
            (MemoryOp::Barrier, []) => self.sync(loc),
            (MemoryOp::Rows { mode, lanes, .. }, [row]) => {
                let rows = |me: &mut Self| {
                    me.cells(row, &Expr::Int(16), *mode, loc);
                    Ok(Jumps::none())
                };
                if *lanes >= builtin::WARP_SIZE {
                    rows(self)?;
                } else {
                    let used = Cond::cmp(Rel::Lt, super::call::lane(), Expr::Int(*lanes));
                    self.branches(used, rows, |_| Ok(Jumps::none()), loc)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Op;

    #[test]
    fn statements_are_read_back_from_their_printing() {
        let a = parse(r#"asm volatile ("mov.u32 %0, %%laneid;" : "=r" (r));"#).unwrap();
        assert_eq!(a.instructions, ["mov.u32 %0, %%laneid"]);
        assert_eq!(
            (a.constraints.as_slice(), a.outputs),
            (&["=r".to_string()][..], 1)
        );
        let a = parse(
            r#"asm ("{\n\t.reg .f16 t;\n\tcvt.rn.f16.f32 t, %1;\n\tmov.b16 %0, t;\n}" : "=h" (h) : "f" (f(x, (1))));"#,
        )
        .unwrap();
        assert_eq!(a.instructions.len(), 3, "{a:?}");
        assert_eq!(a.constraints, ["=h", "f"]);
        assert_eq!(a.outputs, 1);
        assert!(beyond_registers(&a).is_none());
        let a = parse(
            r#"asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r" (s), "l" (g));"#,
        )
        .unwrap();
        assert_eq!((a.outputs, a.constraints.len()), (0, 2));
        // An asynchronous copy is modelled (`memory_op`).
        assert_eq!(beyond_registers(&a), None);
        // A macro's definition, its operands the macro's parameters.
        let a = parse("asm volatile(\"ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0, %1}, [%2];\\n\" \\\n  : \"=r\"(R0), \"=r\"(R1) \\\n  : \"r\"(addr))\n#define NEXT 1\n").unwrap();
        assert_eq!((a.outputs, a.constraints.len()), (2, 3));
        // The toolkit's macro for a pointer operand's constraint.
        let a = parse(r#"asm ("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4+16];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : __LDG_PTR(ptr));"#).unwrap();
        assert_eq!(a.constraints, ["=r", "=r", "=r", "=r", "l"]);
        assert_eq!(
            parse(r#"asm ("mov.u32 %0, %1;" : "=r"(a) : MY_CONSTRAINT(b));"#),
            None
        );
        // Templates spelled with macros are not read.
        assert_eq!(parse(r#"asm volatile (PTX_LOAD : "=r" (r));"#), None);
        assert_eq!(
            parse(r#"asm volatile ("ld.global" HINT ".u32 %0, [%1];" : "=r" (r) : "l" (p));"#),
            None
        );
        assert_eq!(parse(r#"asm goto ("bra %l0;" :::: done);"#), None);
        // Comments between the template's strings and among the operands.
        let a = parse(
            "asm volatile(\"shl.b32 %0, %2, 16;\\n\"  // low half\n  \"and.b32 %1, %2, 0xFFFF0000;\" /* high */\n  : \"=f\"(o[0]), \"=f\"(o[1]) // two\n  : \"r\"(x / 2));",
        )
        .unwrap();
        assert_eq!(
            a.instructions,
            ["shl.b32 %0, %2, 16", "and.b32 %1, %2, 0xFFFF0000"]
        );
        assert_eq!((a.outputs, a.constraints.len()), (2, 3));
    }

    #[test]
    fn only_register_instructions_are_modelled() {
        let ask = |t: &str| {
            beyond_registers(&parse(&format!("asm (\"{t}\" : \"=r\" (x));")).unwrap()).is_none()
        };
        assert!(ask("mov.u32 %0, %%laneid;"));
        assert!(ask("@p add.s32 %0, %0, 1;"));
        assert!(ask(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};"
        ));
        assert!(ask("fence.acq_rel.gpu;"));
        assert!(ask("vshl.u32.u32.u32.clamp.add %0, %0, 4, %1;"));
        // A guarded load is a load.
        assert!(ask("@p ld.global.nc.u32 %0, [%1];"));
        for memory in [
            "@p ld.local.u32 %0, [%1];",
            "st.local.u32 [%0], %1;",
            "atom.global.add.u32 %0, [%1+n], 1;",
            "bar.sync 1, 64;",
            "bar.arrive 1, 64;",
            "bra L1;",
            "L1:",
        ] {
            assert!(!ask(memory), "{memory}");
        }
    }

    #[test]
    fn guards_and_the_comparisons_that_set_them_are_read() {
        assert_eq!(
            guarded("@!p st.global.u32 [%0], %1"),
            Some(("p", true, "st.global.u32 [%0], %1"))
        );
        assert_eq!(guarded("st.global.u32 [%0], %1"), None);
        let a = parse(
            r#"asm volatile ("{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n@p st.global.u32 [%0], %1;\n}" :: "l"(d), "r"(v), "r"(ok));"#,
        )
        .unwrap();
        assert_eq!(beyond_registers(&a), None);
        assert_eq!(predicate_of(&a, "p"), Some((2, Rel::Ne, 0)));
        // The number on the left: the relation turns around.
        let a = parse(r#"asm ("setp.lt.s32 q, 8, %1;\n@q ld.global.u32 %0, [%2];" : "=r"(x) : "r"(n), "l"(s));"#)
            .unwrap();
        assert_eq!(predicate_of(&a, "q"), Some((1, Rel::Gt, 8)));
        // Set twice, or by something else: not known.
        let a = parse(r#"asm ("setp.ne.b32 p, %1, 0;\nand.pred p, p, r;\n@p ld.global.u32 %0, [%2];" : "=r"(x) : "r"(n), "l"(s));"#)
            .unwrap();
        assert_eq!(predicate_of(&a, "p"), None);
    }

    #[test]
    fn asynchronous_copies_and_matrix_loads_name_their_addresses() {
        assert_eq!(
            memory_op("cp.async.cg.shared.global.L2::128B [%0], [%1], %2"),
            Some(MemoryOp::Copy {
                dst: 0,
                src: 1,
                bytes: Size::Operand(2)
            })
        );
        assert_eq!(
            memory_op("cp.async.ca.shared.global [%1], [%0], 8, %2"),
            Some(MemoryOp::Copy {
                dst: 1,
                src: 0,
                bytes: Size::Bytes(8)
            })
        );
        assert_eq!(
            memory_op("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0, %1, %2, %3}, [%4]"),
            Some(MemoryOp::Rows {
                address: 4,
                mode: Mode::Read,
                lanes: 32
            })
        );
        // The rows of one matrix come from lanes 0-7, of two from 0-15.
        assert_eq!(
            memory_op("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1]"),
            Some(MemoryOp::Rows {
                address: 1,
                mode: Mode::Read,
                lanes: 8
            })
        );
        assert_eq!(
            memory_op("stmatrix.sync.aligned.x2.m8n8.shared.b16 [%0], {%1, %2}"),
            Some(MemoryOp::Rows {
                address: 0,
                mode: Mode::Write,
                lanes: 16
            })
        );
        for barrier in [
            "bar.sync 0",
            "barrier.sync 0;",
            "bar.sync 1",
            "barrier.sync.aligned 0",
        ] {
            assert_eq!(memory_op(barrier), Some(MemoryOp::Barrier), "{barrier}");
        }
        // Named barriers for some warps only, or an id in a register.
        for partial in ["bar.sync 1, 128", "bar.sync %0", "bar.arrive 1, 64"] {
            assert_eq!(memory_op(partial), None, "{partial}");
        }
        for wait in [
            "cp.async.commit_group",
            "cp.async.wait_group %0",
            "cp.async.wait_all",
        ] {
            assert_eq!(memory_op(wait), Some(MemoryOp::Wait), "{wait}");
        }
        // Copies to global memory, bulk copies, accesses of other state
        // spaces or at an offset a name gives, and guarded ones are not
        // these.
        for other in [
            "cp.async.bulk.shared::cluster.global [%0], [%1], %2, [%3]",
            "cp.async.cg.shared.global %0, %1, 16",
            "ld.param.u32 %0, [%1]",
            "ld.shared.v4.b32 {%0, %1, %2, %3}, [%4+off]",
            "st.global.bf16x2 [%0], %1",
            "stmatrix.sync.aligned.x4.m8n8.global.b16 [%0], {%1, %2, %3, %4}",
        ] {
            assert_eq!(memory_op(other), None, "{other}");
        }
        let statement = parse(
            r#"asm volatile ("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" :: "r"(d), "l"(s), "n"(16));"#,
        )
        .unwrap();
        assert_eq!(beyond_registers(&statement), None);
    }

    #[test]
    fn loads_stores_and_atomics_name_their_address_and_width() {
        let access = |address, mode, bytes| {
            Some(MemoryOp::Access {
                address,
                offset: 0,
                mode,
                bytes,
            })
        };
        assert_eq!(
            memory_op("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4]"),
            access(4, Mode::Read, 16)
        );
        assert_eq!(
            memory_op("ld.shared.u16 %0, [%1]"),
            access(1, Mode::Read, 2)
        );
        assert_eq!(
            memory_op("st.global.v2.b64 [%0], {%1, %2}"),
            access(0, Mode::Write, 16)
        );
        assert_eq!(memory_op("st.f16x2 [%2], %1"), access(2, Mode::Write, 4));
        assert_eq!(
            memory_op("red.release.gpu.global.add.s32 [%0], %1"),
            access(0, Mode::Atomic, 4)
        );
        assert_eq!(
            memory_op("atom.global.cas.b64 %0, [%1], %2, %3"),
            access(1, Mode::Atomic, 8)
        );
        // Strong loads and stores order with each other as atomics do.
        assert_eq!(
            memory_op("ld.acquire.gpu.global.u32 %0, [%1]"),
            access(1, Mode::Atomic, 4)
        );
        assert_eq!(
            memory_op("st.volatile.shared.u8 [%0], %1"),
            access(0, Mode::Atomic, 1)
        );
        // An address with a byte offset: the second half of a 32-byte
        // vector, or a cell before the operand's.
        let at = |address, offset, mode, bytes| {
            Some(MemoryOp::Access {
                address,
                offset,
                mode,
                bytes,
            })
        };
        assert_eq!(
            memory_op("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4+16]"),
            at(4, 16, Mode::Read, 16)
        );
        assert_eq!(
            memory_op("st.global.u32 [%0 + 0x20], %1"),
            at(0, 32, Mode::Write, 4)
        );
        assert_eq!(
            memory_op("ld.shared.u32 %0, [%1-4]"),
            at(1, -4, Mode::Read, 4)
        );
        assert_eq!(memory_op("ld.shared.u32 %0, [%1+n]"), None);
        // PTX's octal `010` is 8, not 10.
        assert_eq!(memory_op("ld.shared.u32 %0, [%1+010]"), None);
        // Copies and rows take no offset.
        assert_eq!(
            memory_op("cp.async.cg.shared.global [%0+16], [%1], 16"),
            None
        );
    }

    #[test]
    fn special_registers_are_the_threads_ids() {
        let reg =
            |t: &str| special_register(&parse(&format!("asm (\"{t}\" : \"=r\" (x));")).unwrap(), 0);
        assert_eq!(
            reg("mov.u32 %0, %%laneid;"),
            Some(Expr::bin(
                Op::Mod,
                super::super::call::linear_tid(),
                Expr::Int(32)
            ))
        );
        assert_eq!(
            reg("mov.u32 %0, %%tid.y;"),
            Some(Expr::var(builtin::TID[1]))
        );
        assert_eq!(
            reg("mov.u32 %0, %%nctaid.z;"),
            Some(Expr::var(builtin::GRID_DIM[2]))
        );
        assert_eq!(reg("mov.u32 %0, %%warpid;"), None);
        assert_eq!(reg("mov.u32 %0, %%clock;"), None);
        assert_eq!(reg("add.u32 %0, %0, 1;"), None);
    }
}
