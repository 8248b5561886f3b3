//! Launch inference: the launch configurations that host code of the
//! translation unit gives each kernel (`k<<<grid, block>>>(…)`,
//! `cudaLaunchKernel`, `cudaLaunchCooperativeKernel`), with the dimensions
//! that are constants (literals, macros, `constexpr`, `dim3` values and local
//! variables that are never changed after their initialisation).
//!
//! A kernel whose every launch in the unit is seen is analysed under those
//! launches only. A kernel whose address escapes (passed to anything but a
//! launch or an attribute query) or that the unit never launches keeps
//! symbolic dimensions.

use super::clang::{kind as K, Node};
use super::lower::strip;
use super::TemplateArgs;
use crate::protocol::{builtin, Cond, Expr, Loc, Rel};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One axis of a dimension: a known size or not.
pub type Dims = [Option<u64>; 3];

/// One launch seen in host code.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LaunchSite {
    pub grid: Dims,
    pub block: Dims,
    /// Where the launch is, in the file that contains it.
    pub file: String,
    pub loc: Loc,
}

impl LaunchSite {
    /// `<<<(?, 1, 1), (16, 16, 1)>>>`.
    pub fn describe(&self) -> String {
        let d = |x: &Dims| {
            let parts: Vec<String> = x
                .iter()
                .map(|v| v.map_or("?".to_string(), |v| v.to_string()))
                .collect();
            format!("({})", parts.join(", "))
        };
        format!("<<<{}, {}>>>", d(&self.grid), d(&self.block))
    }

    /// `<<<(?, 1, 1), (16, 16, 1)>>> at main.cu:12:5`.
    pub fn describe_at(&self) -> String {
        format!("{} at {}:{}", self.describe(), self.file, self.loc)
    }
}

/// A kernel as launches name it: the function (or, for an instantiation,
/// its template) and the template arguments.
pub type KernelKey = (u32, TemplateArgs);

/// Every kernel's launches in one unit.
#[derive(Default)]
pub struct Launches {
    sites: HashMap<KernelKey, Vec<LaunchSite>>,
    /// Kernels whose address is taken other than to launch them.
    escaped: Vec<KernelKey>,
    /// How each kernel seen reads in reports (`k`, `k<32>`).
    names: HashMap<KernelKey, String>,
}

/// What host code of one unit does with a kernel that another unit defines
/// (`main.cu` launching a kernel of `kernels.cu` through a declaration):
/// its launches, or `None` when its address escapes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForeignLaunches {
    pub kernel: String,
    pub sites: Option<Vec<LaunchSite>>,
}

impl Launches {
    /// Walks the host code of every project file of the unit.
    pub fn collect(root: &Node, project: &dyn Fn(&Node) -> bool) -> Launches {
        let mut out = Launches::default();
        out.walk(root, None, project);
        out
    }

    /// The launches of `key`, when they are all known: `None` when the
    /// kernel is never launched in the unit or its address escapes.
    pub fn of(&self, key: &KernelKey) -> Option<&[LaunchSite]> {
        if self.escaped.contains(key) {
            return None;
        }
        self.sites
            .get(key)
            .map(Vec::as_slice)
            .filter(|s| !s.is_empty())
    }

    /// Whether host code of the unit takes the kernel's address other than
    /// to launch it (a table of kernels launched through a pointer).
    pub fn escapes(&self, key: &KernelKey) -> bool {
        self.escaped.contains(key)
    }

    /// The launches and escapes of kernels the unit names but does not
    /// define (`defined` holds the keys of those it does), by name.
    pub fn foreign(&self, defined: &[KernelKey]) -> Vec<ForeignLaunches> {
        let mut out: Vec<ForeignLaunches> = self
            .names
            .iter()
            .filter(|(key, _)| !defined.contains(key))
            .map(|(key, name)| ForeignLaunches {
                kernel: name.clone(),
                sites: (!self.escaped.contains(key))
                    .then(|| self.sites.get(key).cloned().unwrap_or_default()),
            })
            .filter(|f| f.sites.as_ref().is_none_or(|s| !s.is_empty()))
            .collect();
        out.sort_by(|a, b| a.kernel.cmp(&b.kernel));
        out
    }

    fn name(&mut self, key: &KernelKey, f: &Node) {
        if !self.names.contains_key(key) {
            let name = kernel_name(&f.spelling(), &key.1);
            self.names.insert(key.clone(), name);
        }
    }

    fn walk<'a>(&mut self, n: &Node<'a>, func: Option<Node<'a>>, project: &dyn Fn(&Node) -> bool) {
        for c in n.children() {
            let k = c.kind();
            if !project(&c) {
                continue;
            }
            // Device code launches nothing the host can see.
            if (k == K::FUNCTION || k == K::FUNCTION_TEMPLATE || k == K::METHOD)
                && c.has_attr(K::CUDA_GLOBAL)
            {
                continue;
            }
            let func = if k == K::FUNCTION
                || k == K::METHOD
                || k == K::FUNCTION_TEMPLATE
                || k == K::CONSTRUCTOR
            {
                Some(c)
            } else {
                func
            };
            if k == K::CALL {
                if self.call(&c, func) {
                    continue;
                }
            } else if k == K::DECL_REF {
                if let Some(r) = c.referenced() {
                    if let Some(key) = kernel_key(&r) {
                        self.name(&key, &r);
                        self.escaped.push(key);
                    }
                }
            }
            self.walk(&c, func, project);
        }
    }

    /// A launch or a call that only names kernels; `true` when `c` was
    /// handled whole.
    fn call<'a>(&mut self, c: &Node<'a>, func: Option<Node<'a>>) -> bool {
        let Some(callee) = c.referenced() else {
            return false;
        };
        let pos = c.pos();
        let loc = Loc::new(pos.line, pos.column);
        if let Some(key) = kernel_key(&callee) {
            // `k<<<g, b>>>(…)`: a child call configures the launch.
            let children = c.children();
            let config = children.iter().find(|ch| {
                ch.kind() == K::CALL
                    && ch.referenced().is_some_and(|f| {
                        let s = f.spelling();
                        s == "cudaConfigureCall" || s == "__cudaPushCallConfiguration"
                    })
            });
            let Some(config) = config else { return false };
            if config.num_args() < 2 {
                return false;
            }
            let site = LaunchSite {
                grid: dims(&config.arg(0), func),
                block: dims(&config.arg(1), func),
                file: pos.file.clone(),
                loc,
            };
            self.name(&key, &callee);
            self.sites.entry(key).or_default().push(site);
            for ch in children.iter().skip(1) {
                if ch.kind() != K::CALL || ch.referenced().is_none_or(|f| kernel_key(&f).is_some())
                {
                    self.walk(ch, func, &|_| true);
                }
            }
            return true;
        }
        let name = callee.spelling();
        if (name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel")
            && c.num_args() >= 3
        {
            let target = referenced_kernel(&c.arg(0));
            if let Some((key, f)) = target {
                let site = LaunchSite {
                    grid: dims(&c.arg(1), func),
                    block: dims(&c.arg(2), func),
                    file: pos.file.clone(),
                    loc,
                };
                self.name(&key, &f);
                self.sites.entry(key).or_default().push(site);
                for i in 3..c.num_args().max(3) as u32 {
                    self.walk(&c.arg(i), func, &|_| true);
                }
                return true;
            }
            return false;
        }
        // Attribute and occupancy queries name a kernel without launching it.
        name.starts_with("cudaFuncGetAttributes")
            || name.starts_with("cudaFuncSet")
            || name.starts_with("cudaOccupancy")
    }
}

/// The key of a kernel that `f` declares or specialises, if it is one.
fn kernel_key(f: &Node) -> Option<KernelKey> {
    if f.kind() != K::FUNCTION && f.kind() != K::FUNCTION_TEMPLATE {
        return None;
    }
    match f.specialized_template() {
        Some(t) if t.kind() == K::FUNCTION_TEMPLATE => {
            let global = t.has_attr(K::CUDA_GLOBAL) || f.has_attr(K::CUDA_GLOBAL);
            global.then(|| (t.id(), f.template_args()))
        }
        _ => f.has_attr(K::CUDA_GLOBAL).then(|| (f.id(), Vec::new())),
    }
}

/// How a kernel reads in reports: its name, with the template arguments of
/// an instantiation (`reduce<float, 256>`).
pub fn kernel_name(spelling: &str, targs: &TemplateArgs) -> String {
    if targs.is_empty() {
        return spelling.to_string();
    }
    let args: Vec<String> = targs
        .iter()
        .map(|a| match a {
            Ok(v) => v.to_string(),
            Err(t) => t.clone(),
        })
        .collect();
    format!("{spelling}<{}>", args.join(", "))
}

fn referenced_kernel<'a>(n: &Node<'a>) -> Option<(KernelKey, Node<'a>)> {
    let n = strip(*n);
    if n.kind() == K::UNARY {
        return n.children().first().and_then(referenced_kernel);
    }
    let r = n.referenced()?;
    kernel_key(&r).map(|key| (key, r))
}

/// The sizes a launch argument gives, as far as they are constants.
fn dims(n: &Node, func: Option<Node>) -> Dims {
    dims_at(n, func, 0)
}

fn dims_at(n: &Node, func: Option<Node>, depth: usize) -> Dims {
    const UNKNOWN: Dims = [None; 3];
    if depth > 8 {
        return UNKNOWN;
    }
    let n = strip(*n);
    if let Some(v) = n.eval_int() {
        return [u64::try_from(v).ok().filter(|v| *v >= 1), Some(1), Some(1)];
    }
    if n.kind() == K::CALL {
        let Some(ctor) = n.referenced() else {
            return UNKNOWN;
        };
        if ctor.kind() != K::CONSTRUCTOR {
            return UNKNOWN;
        }
        let args: Vec<Node> = (0..n.num_args().max(0) as u32).map(|i| n.arg(i)).collect();
        if args.len() == 1 && !strip(args[0]).ty().is_integral() {
            // A copy or a conversion (`dim3(v)` of a `dim3` or `uint3`).
            return dims_at(&args[0], func, depth + 1);
        }
        let mut out = [Some(1); 3];
        for (i, a) in args.iter().take(3).enumerate() {
            // A constant, or a local set once to one (`int threads = T;
            // … dim3(threads)`).
            out[i] = dims_at(a, func, depth + 1)[0];
        }
        return out;
    }
    if n.kind() == K::DECL_REF {
        let Some(var) = n.referenced() else {
            return UNKNOWN;
        };
        if var.kind() != K::VAR {
            return UNKNOWN;
        }
        let (Some(f), Some(parent)) = (func, var.semantic_parent()) else {
            return UNKNOWN;
        };
        if parent.id() != f.id() {
            return UNKNOWN;
        }
        let init = var.children().into_iter().rev().find(|c| c.is_expression());
        let start = match init {
            Some(i) => dims_at(&i, func, depth + 1),
            // `dim3 b;` is (1, 1, 1).
            None if var.ty().canonical().spelling().ends_with("dim3") => [Some(1); 3],
            None => UNKNOWN,
        };
        if !modified(&f, &var.spelling()) {
            // A local never changed after its initialisation.
            return start;
        }
        return assigned_fields(&f, &var, start, n.offset());
    }
    UNKNOWN
}

/// The value of a `dim3` local at a launch (at byte `at`) when the function
/// only sets its fields to constants (`b.x = 256;`): straight-line
/// assignments before the launch replace a field; assignments under a
/// condition or loop, or after the launch when the launch is in a loop,
/// leave it known only when they agree. Any other change makes it unknown.
fn assigned_fields(f: &Node, var: &Node, start: Dims, at: u32) -> Dims {
    let mut dims = start;
    let mut ok = true;
    let in_loop = encloses_in_loop(f, at);
    visit_assignments(f, var, false, &mut |field, value, conditional, offset| {
        let Some(axis) = field else {
            ok = false;
            return;
        };
        if offset > at && !in_loop {
            return;
        }
        if !conditional && offset < at {
            dims[axis] = value;
        } else if dims[axis] != value {
            dims[axis] = None;
        }
    });
    if ok {
        dims
    } else {
        [None; 3]
    }
}

/// What one assignment found by [`visit_assignments`] does: the field it
/// sets (`None`: any other change), the constant it sets it to, whether it
/// sits under a condition or loop, and where.
type FoundAssignment<'a> = dyn FnMut(Option<usize>, Option<u64>, bool, u32) + 'a;

/// Reports each change to `var` in `n`: assignments to one of its fields,
/// and anything else (an assignment to the whole, an increment).
fn visit_assignments(n: &Node, var: &Node, conditional: bool, found: &mut FoundAssignment) {
    use super::clang::op;
    for c in n.children() {
        let k = c.kind();
        let cond =
            conditional || [K::IF, K::FOR, K::WHILE, K::DO, K::SWITCH, K::CONDITIONAL].contains(&k);
        let ch = c.children();
        let is_var = |x: &Node| {
            let x = strip(*x);
            x.kind() == K::DECL_REF && x.referenced().is_some_and(|r| r.id() == var.id())
        };
        let writes = (k == K::BINARY && c.binop() == op::ASSIGN) || k == K::COMPOUND_ASSIGN;
        if writes && ch.len() == 2 {
            let lhs = strip(ch[0]);
            if lhs.kind() == K::MEMBER_REF && lhs.children().first().is_some_and(is_var) {
                let axis = ["x", "y", "z"].iter().position(|a| *a == lhs.spelling());
                let value = if k == K::BINARY {
                    strip(ch[1])
                        .eval_int()
                        .and_then(|v| u64::try_from(v).ok())
                        .filter(|v| *v >= 1)
                } else {
                    None
                };
                found(axis, value, cond, c.offset());
                continue;
            }
            if is_var(&lhs) {
                found(None, None, cond, c.offset());
                continue;
            }
        }
        let changes = matches!(
            c.unop(),
            op::PRE_INC | op::PRE_DEC | op::POST_INC | op::POST_DEC | op::ADDR_OF
        );
        if k == K::UNARY && changes && ch.first().is_some_and(is_var) {
            found(None, None, cond, c.offset());
            continue;
        }
        // `b = dim3(…)` on a class: a call of its `operator=`.
        if k == K::CALL && c.spelling().starts_with("operator=") && ch.first().is_some_and(is_var) {
            found(None, None, cond, c.offset());
            continue;
        }
        visit_assignments(&c, var, cond, found);
    }
}

/// Whether the code at byte `at` of `f` is inside a loop.
fn encloses_in_loop(f: &Node, at: u32) -> bool {
    fn walk(n: &Node, at: u32, in_loop: bool) -> bool {
        for c in n.children() {
            let (start, end) = c.byte_range();
            if (start..=end).contains(&at) {
                let l = in_loop || [K::FOR, K::WHILE, K::DO, K::FOR_RANGE].contains(&c.kind());
                return walk(&c, at, l);
            }
        }
        in_loop
    }
    walk(f, at, false)
}

/// Whether the function's text may change `name` after its declaration:
/// an assignment to it or to a field of it, an increment, or its address
/// taken.
fn modified(f: &Node, name: &str) -> bool {
    let toks: Vec<String> = f.tokens().into_iter().map(|(t, _)| t).collect();
    let assign = |t: &str| {
        matches!(
            t,
            "=" | "+="
                | "-="
                | "*="
                | "/="
                | "%="
                | "<<="
                | ">>="
                | "&="
                | "|="
                | "^="
                | "++"
                | "--"
        )
    };
    let mut declared = false;
    for (i, t) in toks.iter().enumerate() {
        if t != name {
            continue;
        }
        let prev = if i > 0 { toks[i - 1].as_str() } else { "" };
        let next = toks.get(i + 1).map(String::as_str).unwrap_or("");
        if !declared {
            // The first mention declares it (`dim3 block = …`, `int t(…)`).
            declared = true;
            continue;
        }
        if prev == "&" || prev == "++" || prev == "--" || assign(next) {
            return true;
        }
        if next == "." && toks.get(i + 3).is_some_and(|t| assign(t)) {
            return true;
        }
    }
    false
}

/// The launch as conditions on the kernel's dimensions: one launch's known
/// sizes, or the disjunction over several launches. `None` when some
/// launch constrains nothing.
pub fn condition(sites: &[LaunchSite]) -> Option<Cond> {
    let mut any: Option<Cond> = None;
    for s in sites {
        let mut all = Cond::Bool(true);
        let mut known = false;
        for (dims, names) in [(&s.block, builtin::BLOCK_DIM), (&s.grid, builtin::GRID_DIM)] {
            for (v, n) in dims.iter().zip(names) {
                if let Some(v) = v {
                    known = true;
                    all = Cond::and(all, Cond::cmp(Rel::Eq, Expr::var(n), Expr::Int(*v as i64)));
                }
            }
        }
        if !known {
            return None;
        }
        any = Some(match any {
            None => all,
            Some(a) => Cond::or(a, all),
        });
    }
    any
}

/// The sizes every launch agrees on, per axis, block then grid.
pub fn common(sites: &[LaunchSite]) -> (Dims, Dims) {
    let agree = |f: fn(&LaunchSite) -> &Dims| {
        let mut out: Dims = *f(&sites[0]);
        for s in &sites[1..] {
            for (o, v) in out.iter_mut().zip(f(s)) {
                if *o != *v {
                    *o = None;
                }
            }
        }
        out
    };
    (agree(|s| &s.block), agree(|s| &s.grid))
}

/// The kernel under the launches `sites` when it was lowered without them:
/// the sizes every launch agrees on are fixed as in-unit launches fix them,
/// and, with several launches, one of them happens.
pub fn apply(kernel: &mut crate::protocol::Kernel, sites: &[LaunchSite]) {
    if sites.is_empty() {
        return;
    }
    let (block, grid) = common(sites);
    for (dims, names) in [(block, builtin::BLOCK_DIM), (grid, builtin::GRID_DIM)] {
        for (v, n) in dims.iter().zip(names) {
            if let Some(v) = v {
                kernel.fix(n, *v as i64);
            }
        }
    }
    if sites.len() > 1 {
        kernel.assumes.extend(condition(sites));
    }
    if let Some(note) = unread_block(sites, kernel) {
        if !kernel.approximations.contains(&note) {
            kernel.approximations.push(note);
        }
    }
}

/// The note for `Kernel::approximations` of a kernel whose address host
/// code takes: it is launched in ways drfscan does not follow.
pub const ESCAPED: &str = "host code takes the kernel's address (to launch it through a pointer, say), so its block size is not known and a race's block may be one the program never launches";

/// When host code launches the kernel with a block size drfscan cannot
/// read (`k<<<g, block[i]>>>`, a size computed at run time) along an axis
/// the kernel uses: a note for `Kernel::approximations`. A witness's block
/// may then be one the program never launches, so no race is confirmed.
pub fn unread_block(sites: &[LaunchSite], kernel: &crate::protocol::Kernel) -> Option<String> {
    let used = kernel.mentioned_vars();
    let axis_used =
        |a: usize| a == 0 || used.contains(builtin::TID[a]) || used.contains(builtin::BLOCK_DIM[a]);
    let site = sites
        .iter()
        .find(|s| (0..3).any(|a| s.block[a].is_none() && axis_used(a)))?;
    Some(format!(
        "the launch at {}:{} has a block size drfscan cannot read, so a race's block may be one the program never launches",
        site.file, site.loc
    ))
}
