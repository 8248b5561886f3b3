//! The protocol text format: a hand-written lexer and recursive-descent
//! parser producing a [`Kernel`]; [`super::print`] is its inverse.
//!
//! Blocks are flattened as they are parsed (nested blocks spliced, `skip`
//! dropped, a single statement unwrapped), so `{ wr[tid] }` and `wr[tid]` give
//! the same [`Stmt`]; [`flatten`] applies that normal form to any statement.

use super::{Access, ArrayProtocol, Cond, Expr, Kernel, Loc, Mode, Op, Rel, Scope, Stmt, Value};
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl ParseError {
    fn new(loc: Loc, message: impl Into<String>) -> ParseError {
        ParseError {
            line: loc.line,
            column: loc.column,
            message: message.into(),
        }
    }
    pub fn loc(&self) -> Loc {
        Loc::new(self.line, self.column)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

type Result<T> = std::result::Result<T, ParseError>;

/// Parses a protocol file. Kernel.name is left empty for the caller to set.
pub fn parse(src: &str) -> Result<Kernel> {
    let toks = lex(src)?;
    Parser::new(toks).file()
}

/// Like [`parse`], but first rejects bytes that are not UTF-8, naming the
/// position of the first bad byte.
pub fn parse_bytes(bytes: &[u8]) -> Result<Kernel> {
    match std::str::from_utf8(bytes) {
        Ok(src) => parse(src),
        Err(e) => {
            let good = e.valid_up_to();
            // The prefix is valid UTF-8 by construction.
            let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
            let mut loc = Loc::new(1, 1);
            for c in prefix.chars() {
                advance(&mut loc, c);
            }
            Err(ParseError::new(
                loc,
                format!(
                    "invalid UTF-8 (byte 0x{:02x}); protocol files must be UTF-8 text",
                    bytes[good]
                ),
            ))
        }
    }
}

/// The parser's normal form of a statement: nested sequences spliced,
/// `skip` dropped from sequences, one-element sequences unwrapped, an empty
/// sequence turned into `skip`. Locations and ids are kept.
pub fn flatten(s: &Stmt) -> Stmt {
    match s {
        Stmt::Skip | Stmt::Access(_) | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {
            s.clone()
        }
        Stmt::Seq(items) => block(items.iter().map(flatten).collect()),
        Stmt::If {
            cond,
            then,
            els,
            loc,
        } => Stmt::If {
            cond: cond.clone(),
            then: Box::new(flatten(then)),
            els: Box::new(flatten(els)),
            loc: *loc,
        },
        Stmt::For {
            var,
            lo,
            hi,
            body,
            loc,
        } => Stmt::For {
            var: var.clone(),
            lo: lo.clone(),
            hi: hi.clone(),
            body: Box::new(flatten(body)),
            loc: *loc,
        },
    }
}

/// Builds a block from statements already in normal form.
fn block(items: Vec<Stmt>) -> Stmt {
    let mut out = Vec::with_capacity(items.len());
    for s in items {
        match s {
            Stmt::Skip => {}
            Stmt::Seq(inner) => out.extend(inner),
            s => out.push(s),
        }
    }
    match out.len() {
        0 => Stmt::Skip,
        1 => out.pop().unwrap_or(Stmt::Skip),
        _ => Stmt::Seq(out),
    }
}

/// Words that cannot name a variable or an array.
const KEYWORDS: &[&str] = &[
    "params",
    "locals",
    "assume",
    "array",
    "shared",
    "global",
    "skip",
    "sync",
    "grid_sync",
    "rd",
    "wr",
    "atomic",
    "for",
    "in",
    "if",
    "else",
    "true",
    "false",
    "min",
    "max",
    "tid",
    "bid",
    "blockDim",
    "gridDim",
];

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(u64),
    Sym(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Int(n) => write!(f, "`{n}`"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => write!(f, "end of file"),
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    loc: Loc,
}

const SYMBOLS2: &[&str] = &["..", "<<", ">>", "==", "!=", "<=", ">=", "&&", "||"];
const SYMBOLS1: &[&str] = &[
    ";", ",", ".", "{", "}", "[", "]", "(", ")", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">",
    "!", "?", ":", "=",
];

fn advance(loc: &mut Loc, c: char) {
    if c == '\n' {
        loc.line += 1;
        loc.column = 1;
    } else {
        loc.column += 1;
    }
}

fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut loc = Loc::new(1, 1);
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        let start = loc;
        if c.is_whitespace() {
            advance(&mut loc, c);
            i += 1;
        } else if c == '#' || (c == '/' && at(i + 1) == '/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut loc, chars[i]);
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            loc.column += 2;
            loop {
                if i >= chars.len() {
                    return Err(ParseError::new(start, "unterminated `/*` comment"));
                }
                if chars[i] == '*' && at(i + 1) == '/' {
                    i += 2;
                    loc.column += 2;
                    break;
                }
                advance(&mut loc, chars[i]);
                i += 1;
            }
        } else if c.is_ascii_digit() {
            let mut text = String::new();
            while at(i).is_ascii_alphanumeric() || at(i) == '_' {
                text.push(chars[i]);
                advance(&mut loc, chars[i]);
                i += 1;
            }
            if !text.chars().all(|c| c.is_ascii_digit()) {
                return Err(ParseError::new(start, format!("invalid number `{text}`")));
            }
            let n = text.parse::<u64>().map_err(|_| {
                ParseError::new(start, format!("integer literal `{text}` is too large"))
            })?;
            toks.push(Token {
                tok: Tok::Int(n),
                loc: start,
            });
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut text = String::new();
            // `x#2` is one name: the front-end numbers fresh unknowns this
            // way. A `#` that does not follow a name still opens a comment.
            while at(i).is_ascii_alphanumeric()
                || at(i) == '_'
                || (at(i) == '#' && at(i + 1).is_ascii_digit())
            {
                text.push(chars[i]);
                advance(&mut loc, chars[i]);
                i += 1;
            }
            toks.push(Token {
                tok: Tok::Ident(text),
                loc: start,
            });
        } else {
            let two: String = [c, at(i + 1)].iter().collect();
            let sym = SYMBOLS2
                .iter()
                .find(|s| **s == two)
                .or_else(|| SYMBOLS1.iter().find(|s| s.starts_with(c) && s.len() == 1));
            match sym {
                Some(s) => {
                    for _ in 0..s.len() {
                        advance(&mut loc, chars[i]);
                        i += 1;
                    }
                    toks.push(Token {
                        tok: Tok::Sym(s),
                        loc: start,
                    });
                }
                None => {
                    let hint = match c {
                        '=' => " (did you mean `==`?)",
                        _ => "",
                    };
                    return Err(ParseError::new(
                        start,
                        format!("unexpected character `{c}`{hint}"),
                    ));
                }
            }
        }
    }
    toks.push(Token { tok: Tok::Eof, loc });
    Ok(toks)
}

/// A parsed expression before we know whether a number or a condition is
/// wanted: `(a < b) ? x : y` and `(x + 1) * 2` both start with `(`.
enum Node {
    Num(Expr),
    Bool(Cond),
}

#[derive(Clone, Copy)]
enum DeclKind {
    Param,
    Local,
}

impl DeclKind {
    fn describe(self) -> &'static str {
        match self {
            DeclKind::Param => "a param",
            DeclKind::Local => "a local",
        }
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    kernel: Kernel,
    /// Params and locals, with where they were declared.
    globals: HashMap<String, (DeclKind, Loc)>,
    /// Loop variables in scope, innermost last.
    scope: Vec<(String, Loc)>,
    /// Every loop variable bound so far: a later param of the same name
    /// would make the kernel ambiguous.
    loop_vars: HashMap<String, Loc>,
    arrays: HashMap<String, Loc>,
    next_id: u32,
    /// Current nesting of blocks, and of subexpressions.
    block_depth: usize,
    expr_depth: usize,
}

/// Deeper nesting is rejected rather than risking the stack (of a 2 MiB
/// thread, unoptimized). Real protocols nest a few levels; the synthetic
/// loop families of Fig. 17 go to 50.
const MAX_BLOCK_DEPTH: usize = 128;
const MAX_EXPR_DEPTH: usize = 64;

impl Parser {
    fn new(toks: Vec<Token>) -> Parser {
        Parser {
            toks,
            pos: 0,
            kernel: Kernel::default(),
            globals: HashMap::new(),
            scope: Vec::new(),
            loop_vars: HashMap::new(),
            arrays: HashMap::new(),
            next_id: 0,
            block_depth: 0,
            expr_depth: 0,
        }
    }

    /// Runs `f` one block deeper.
    fn nested_block<T>(&mut self, f: impl FnOnce(&mut Parser) -> Result<T>) -> Result<T> {
        if self.block_depth >= MAX_BLOCK_DEPTH {
            let msg = format!("blocks nested deeper than {MAX_BLOCK_DEPTH} levels");
            return Err(ParseError::new(self.loc(), msg));
        }
        self.block_depth += 1;
        let r = f(self);
        self.block_depth -= 1;
        r
    }

    /// Runs `f` one subexpression deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> Result<T>) -> Result<T> {
        if self.expr_depth >= MAX_EXPR_DEPTH {
            let msg = format!("expression nested deeper than {MAX_EXPR_DEPTH} levels");
            return Err(ParseError::new(self.loc(), msg));
        }
        self.expr_depth += 1;
        let r = f(self);
        self.expr_depth -= 1;
        r
    }

    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn loc(&self) -> Loc {
        self.peek().loc
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(&self.peek().tok, Tok::Sym(t) if *t == s)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(t) if t == w)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.bump();
        }
        yes
    }

    fn error_here(&self, expected: &str) -> ParseError {
        ParseError::new(
            self.loc(),
            format!("expected {expected}, found {}", self.peek().tok),
        )
    }

    fn expect_sym(&mut self, s: &str, why: &str) -> Result<Loc> {
        if self.is_sym(s) {
            Ok(self.bump().loc)
        } else {
            Err(self.error_here(&format!("`{s}`{why}")))
        }
    }

    /// A fresh name (not a keyword) for a declaration.
    fn name(&mut self, what: &str) -> Result<(String, Loc)> {
        match &self.peek().tok {
            Tok::Ident(s) if KEYWORDS.contains(&s.as_str()) => Err(ParseError::new(
                self.loc(),
                format!("`{s}` is a keyword and cannot be used as {what}"),
            )),
            Tok::Ident(s) => {
                let s = s.clone();
                Ok((s, self.bump().loc))
            }
            _ => Err(self.error_here(what)),
        }
    }

    fn file(mut self) -> Result<Kernel> {
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Eof => break,
                Tok::Sym(";") => {
                    self.bump();
                }
                Tok::Ident(w) if w == "params" || w == "locals" => {
                    let kind = if w == "params" {
                        DeclKind::Param
                    } else {
                        DeclKind::Local
                    };
                    self.bump();
                    self.declarations(kind)?;
                }
                Tok::Ident(w) if w == "assume" => {
                    self.bump();
                    let c = self.cond()?;
                    self.kernel.assumes.push(c);
                }
                Tok::Ident(w) if w == "array" || w == "shared" || w == "global" => {
                    let a = self.array()?;
                    self.kernel.arrays.push(a);
                }
                _ => {
                    return Err(self.error_here("`params`, `locals`, `assume` or `array`"));
                }
            }
        }
        Ok(self.kernel)
    }

    fn declarations(&mut self, kind: DeclKind) -> Result<()> {
        let what = match kind {
            DeclKind::Param => "a param name",
            DeclKind::Local => "a local name",
        };
        let mut first = true;
        loop {
            if !first {
                self.eat_sym(",");
            }
            let ends = matches!(&self.peek().tok, Tok::Sym(";") | Tok::Eof)
                || matches!(&self.peek().tok, Tok::Ident(w) if KEYWORDS.contains(&w.as_str()));
            if ends && !first {
                break;
            }
            let (name, loc) = self.name(what)?;
            first = false;
            if let Some((k, at)) = self.globals.get(&name) {
                return Err(ParseError::new(
                    loc,
                    format!("`{name}` is already declared as {} at {at}", k.describe()),
                ));
            }
            if let Some(at) = self.loop_vars.get(&name) {
                return Err(ParseError::new(
                    loc,
                    format!("`{name}` is already a loop variable at {at}"),
                ));
            }
            self.globals.insert(name.clone(), (kind, loc));
            match kind {
                DeclKind::Param => self.kernel.params.push(name),
                DeclKind::Local => self.kernel.locals.push(name),
            }
        }
        Ok(())
    }

    fn array(&mut self) -> Result<ArrayProtocol> {
        let loc = self.loc();
        let scope = if self.eat_word("global") {
            Scope::Global
        } else {
            self.eat_word("shared");
            Scope::Shared
        };
        if !self.eat_word("array") {
            return Err(self.error_here("`array`"));
        }
        let (name, name_loc) = self.name("an array name")?;
        if let Some(at) = self.arrays.get(&name) {
            return Err(ParseError::new(
                name_loc,
                format!("array `{name}` is already declared at {at}"),
            ));
        }
        self.arrays.insert(name.clone(), loc);
        self.next_id = 0;
        let body = self.block("the array body")?;
        Ok(ArrayProtocol {
            name,
            scope,
            body,
            loc,
        })
    }

    /// `{ stmt* }`; `what` names the block in the error for a missing `}`.
    fn block(&mut self, what: &str) -> Result<Stmt> {
        self.nested_block(|p| p.block_items(what))
    }

    fn block_items(&mut self, what: &str) -> Result<Stmt> {
        let open = self.expect_sym("{", &format!(" to open {what}"))?;
        let mut items = Vec::new();
        loop {
            if self.eat_sym(";") {
                continue;
            }
            if self.eat_sym("}") {
                break;
            }
            if let Some(s) = self.stmt()? {
                items.push(s);
            } else {
                return Err(self.error_here(&format!(
                    "a statement or `}}` to close {what} opened at {open}"
                )));
            }
        }
        Ok(block(items))
    }

    /// A statement, or `None` when the next token cannot start one.
    fn stmt(&mut self) -> Result<Option<Stmt>> {
        let t = self.peek().clone();
        let Tok::Ident(w) = &t.tok else {
            if matches!(t.tok, Tok::Sym("{")) {
                return self.block("the block").map(Some);
            }
            return Ok(None);
        };
        let s = match w.as_str() {
            "skip" => {
                self.bump();
                Stmt::Skip
            }
            "sync" => {
                self.bump();
                Stmt::Sync(t.loc)
            }
            "grid_sync" => {
                self.bump();
                Stmt::GridSync(t.loc)
            }
            "warp_sync" => {
                self.bump();
                Stmt::WarpSync(t.loc)
            }
            "rd" | "wr" | "atomic" => {
                self.bump();
                let mode = match w.as_str() {
                    "rd" => Mode::Read,
                    "wr" => Mode::Write,
                    _ => Mode::Atomic,
                };
                let mut index = Vec::new();
                while self.is_sym("[") || index.is_empty() {
                    let open = self.expect_sym("[", &format!(" after `{w}`"))?;
                    index.push(self.expr()?);
                    self.expect_sym("]", &format!(" to close `[` at {open}"))?;
                }
                let value = if mode == Mode::Write && self.is_sym("=") {
                    self.bump();
                    Some(self.stored_value()?)
                } else {
                    None
                };
                let lock = if self.eat_word("lock") {
                    Some(self.lock()?)
                } else {
                    None
                };
                let id = self.next_id;
                self.next_id += 1;
                Stmt::Access(Access {
                    id,
                    mode,
                    index,
                    loc: t.loc,
                    value,
                    lock,
                })
            }
            "for" => {
                self.bump();
                let (var, var_loc) = self.name("a loop variable")?;
                if let Some((k, at)) = self.globals.get(&var) {
                    return Err(ParseError::new(
                        var_loc,
                        format!(
                            "loop variable `{var}` shadows {} declared at {at}",
                            k.describe()
                        ),
                    ));
                }
                if let Some((_, at)) = self.scope.iter().find(|(v, _)| *v == var) {
                    return Err(ParseError::new(
                        var_loc,
                        format!("loop variable `{var}` shadows the enclosing loop variable bound at {at}"),
                    ));
                }
                if !self.eat_word("in") {
                    return Err(self.error_here(&format!("`in` after `for {var}`")));
                }
                let lo = self.expr()?;
                self.expect_sym("..", " between the loop bounds")?;
                let hi = self.expr()?;
                self.loop_vars.entry(var.clone()).or_insert(var_loc);
                self.scope.push((var.clone(), var_loc));
                let body = self.block(&format!("the body of the `for` at {}", t.loc));
                self.scope.pop();
                Stmt::For {
                    var,
                    lo,
                    hi,
                    body: Box::new(body?),
                    loc: t.loc,
                }
            }
            "if" => self.if_stmt()?,
            _ => return Ok(None),
        };
        Ok(Some(s))
    }

    fn if_stmt(&mut self) -> Result<Stmt> {
        let loc = self.bump().loc;
        let cond = self.cond()?;
        let then = self.block(&format!("the body of the `if` at {loc}"))?;
        let els = if self.eat_word("else") {
            if self.is_word("if") {
                self.if_stmt()?
            } else {
                self.block(&format!("the `else` of the `if` at {loc}"))?
            }
        } else {
            Stmt::Skip
        };
        Ok(Stmt::If {
            cond,
            then: Box::new(then),
            els: Box::new(els),
            loc,
        })
    }

    /// A write's value: an expression, or a cell of an array the kernel
    /// never writes (`in[tid + k]`).
    fn stored_value(&mut self) -> Result<Value> {
        if self.is_sym("{") {
            let open = self.bump().loc;
            let mut fields = vec![self.expr()?];
            while self.is_sym(",") {
                self.bump();
                fields.push(self.expr()?);
            }
            self.expect_sym("}", &format!(" to close `{{` at {open}"))?;
            return Ok(Value::Fields(fields));
        }
        let next_is_bracket = matches!(
            self.toks.get(self.pos + 1).map(|t| &t.tok),
            Some(Tok::Sym(s)) if *s == "["
        );
        if !next_is_bracket {
            return Ok(Value::Expr(self.expr()?));
        }
        // Any word: the array need not be declared, and CUDA names such
        // as `in` are keywords here.
        let Tok::Ident(array) = self.peek().tok.clone() else {
            return Err(self.error_here("an array name"));
        };
        self.bump();
        let mut index = Vec::new();
        while self.is_sym("[") {
            let open = self.bump().loc;
            index.push(self.expr()?);
            self.expect_sym("]", &format!(" to close `[` at {open}"))?;
        }
        Ok(Value::Read { array, index })
    }

    /// The lock an access is made under: `m[j]`, any array name.
    fn lock(&mut self) -> Result<crate::protocol::Lock> {
        let Tok::Ident(array) = self.peek().tok.clone() else {
            return Err(self.error_here("a lock's array name"));
        };
        self.bump();
        let mut index = Vec::new();
        while self.is_sym("[") || index.is_empty() {
            let open = self.expect_sym("[", " after a lock's array name")?;
            index.push(self.expr()?);
            self.expect_sym("]", &format!(" to close `[` at {open}"))?;
        }
        Ok(crate::protocol::Lock { array, index })
    }

    fn expr(&mut self) -> Result<Expr> {
        let loc = self.loc();
        let n = self.ternary()?;
        Self::num(n, loc)
    }

    fn cond(&mut self) -> Result<Cond> {
        let loc = self.loc();
        let n = self.ternary()?;
        Self::boolean(n, loc)
    }

    fn num(n: Node, loc: Loc) -> Result<Expr> {
        match n {
            Node::Num(e) => Ok(e),
            Node::Bool(_) => Err(ParseError::new(loc, "expected a number, found a condition")),
        }
    }

    fn boolean(n: Node, loc: Loc) -> Result<Cond> {
        match n {
            Node::Bool(c) => Ok(c),
            Node::Num(_) => Err(ParseError::new(
                loc,
                "expected a condition, found a number (compare it, e.g. `x != 0`)",
            )),
        }
    }

    fn ternary(&mut self) -> Result<Node> {
        self.nested(Parser::ternary_items)
    }

    fn ternary_items(&mut self) -> Result<Node> {
        let loc = self.loc();
        let n = self.or()?;
        if !self.eat_sym("?") {
            return Ok(n);
        }
        let c = Self::boolean(n, loc)?;
        let a = self.expr()?;
        self.expect_sym(":", " in `? :`")?;
        let b = self.expr()?;
        Ok(Node::Num(Expr::Ite(Box::new(c), Box::new(a), Box::new(b))))
    }

    fn or(&mut self) -> Result<Node> {
        let loc = self.loc();
        let mut n = self.and()?;
        while self.is_sym("||") {
            self.bump();
            let l = Self::boolean(n, loc)?;
            let rloc = self.loc();
            let r = self.and()?;
            n = Node::Bool(Cond::Or(Box::new(l), Box::new(Self::boolean(r, rloc)?)));
        }
        Ok(n)
    }

    fn and(&mut self) -> Result<Node> {
        let loc = self.loc();
        let mut n = self.not()?;
        while self.is_sym("&&") {
            self.bump();
            let l = Self::boolean(n, loc)?;
            let rloc = self.loc();
            let r = self.not()?;
            n = Node::Bool(Cond::And(Box::new(l), Box::new(Self::boolean(r, rloc)?)));
        }
        Ok(n)
    }

    fn not(&mut self) -> Result<Node> {
        if self.eat_sym("!") {
            let loc = self.loc();
            let n = self.nested(Parser::not)?;
            return Ok(Node::Bool(Cond::Not(Box::new(Self::boolean(n, loc)?))));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Node> {
        let loc = self.loc();
        let n = self.binary(0)?;
        if self.is_sym("=") {
            // `=` only follows a write: `wr[i] = v`.
            return Err(ParseError::new(
                self.loc(),
                "unexpected `=` (did you mean `==`?)",
            ));
        }
        let Some(rel) = self.rel() else { return Ok(n) };
        self.bump();
        let a = Self::num(n, loc)?;
        let rloc = self.loc();
        let b = Self::num(self.binary(0)?, rloc)?;
        if self.rel().is_some() {
            return Err(ParseError::new(
                self.loc(),
                "comparisons cannot be chained; combine them with `&&`",
            ));
        }
        Ok(Node::Bool(Cond::Cmp(rel, a, b)))
    }

    fn rel(&self) -> Option<Rel> {
        match &self.peek().tok {
            Tok::Sym("==") => Some(Rel::Eq),
            Tok::Sym("!=") => Some(Rel::Ne),
            Tok::Sym("<") => Some(Rel::Lt),
            Tok::Sym("<=") => Some(Rel::Le),
            Tok::Sym(">") => Some(Rel::Gt),
            Tok::Sym(">=") => Some(Rel::Ge),
            _ => None,
        }
    }

    /// Left-associative binary operators by precedence level, loosest
    /// first: as in C, except that comparisons bind more loosely than
    /// `& ^ |` (conditions and numbers are distinct types).
    fn binary(&mut self, level: usize) -> Result<Node> {
        if level == BINARY_LEVELS.len() {
            return self.unary();
        }
        let loc = self.loc();
        let mut n = self.binary(level + 1)?;
        loop {
            let op = match &self.peek().tok {
                Tok::Sym(s) => BINARY_LEVELS[level]
                    .iter()
                    .find(|(t, _)| t == s)
                    .map(|(_, op)| *op),
                _ => None,
            };
            let Some(op) = op else { break };
            self.bump();
            let a = Self::num(n, loc)?;
            let rloc = self.loc();
            let b = Self::num(self.binary(level + 1)?, rloc)?;
            n = Node::Num(Expr::bin(op, a, b));
        }
        Ok(n)
    }

    fn unary(&mut self) -> Result<Node> {
        if !self.is_sym("-") {
            return self.primary();
        }
        self.bump();
        // `-literal` is the literal itself, so negative numbers print and
        // parse back unchanged (down to i64::MIN).
        if let Tok::Int(n) = self.peek().tok {
            let lit = self.bump();
            return i64::try_from(-(n as i128))
                .map(|v| Node::Num(Expr::Int(v)))
                .map_err(|_| {
                    ParseError::new(lit.loc, format!("integer literal `-{n}` is too small"))
                });
        }
        let rloc = self.loc();
        let e = Self::num(self.nested(Parser::unary)?, rloc)?;
        Ok(Node::Num(Expr::sub(Expr::Int(0), e)))
    }

    fn primary(&mut self) -> Result<Node> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Int(n) => {
                self.bump();
                i64::try_from(*n)
                    .map(|v| Node::Num(Expr::Int(v)))
                    .map_err(|_| {
                        ParseError::new(t.loc, format!("integer literal `{n}` is too large"))
                    })
            }
            Tok::Sym("(") => {
                self.bump();
                let n = self.ternary()?;
                self.expect_sym(")", &format!(" to close `(` at {}", t.loc))?;
                Ok(n)
            }
            Tok::Ident(w) => {
                let w = w.clone();
                self.bump();
                match w.as_str() {
                    "true" => Ok(Node::Bool(Cond::Bool(true))),
                    "false" => Ok(Node::Bool(Cond::Bool(false))),
                    "min" | "max" => {
                        let op = if w == "min" { Op::Min } else { Op::Max };
                        let open = self.expect_sym("(", &format!(" after `{w}`"))?;
                        let a = self.expr()?;
                        self.expect_sym(",", &format!(" between the arguments of `{w}`"))?;
                        let b = self.expr()?;
                        self.expect_sym(")", &format!(" to close `(` at {open}"))?;
                        Ok(Node::Num(Expr::bin(op, a, b)))
                    }
                    "tid" | "bid" | "blockDim" | "gridDim" => self.builtin(&w).map(Node::Num),
                    _ if KEYWORDS.contains(&w.as_str()) => Err(ParseError::new(
                        t.loc,
                        format!("expected an expression, found keyword `{w}`"),
                    )),
                    _ => self.variable(w, t.loc).map(Node::Num),
                }
            }
            _ => Err(self.error_here("an expression")),
        }
    }

    fn builtin(&mut self, base: &str) -> Result<Expr> {
        if !self.eat_sym(".") {
            return match base {
                "tid" => Ok(Expr::var("tid.x")),
                "bid" => Ok(Expr::var("bid.x")),
                _ => Err(self.error_here(&format!("`.x`, `.y` or `.z` after `{base}`"))),
            };
        }
        match &self.peek().tok {
            Tok::Ident(d) if d == "x" || d == "y" || d == "z" => {
                let name = format!("{base}.{d}");
                self.bump();
                Ok(Expr::Var(name))
            }
            _ => Err(self.error_here(&format!("`x`, `y` or `z` after `{base}.`"))),
        }
    }

    fn variable(&mut self, name: String, loc: Loc) -> Result<Expr> {
        if self.globals.contains_key(&name) || self.scope.iter().any(|(v, _)| *v == name) {
            Ok(Expr::Var(name))
        } else {
            Err(ParseError::new(
                loc,
                format!("unknown variable `{name}` (declare it with `params` or `locals`, or bind it with `for`)"),
            ))
        }
    }
}

const BINARY_LEVELS: &[&[(&str, Op)]] = &[
    &[("|", Op::BitOr)],
    &[("^", Op::BitXor)],
    &[("&", Op::BitAnd)],
    &[("<<", Op::Shl), (">>", Op::Shr)],
    &[("+", Op::Add), ("-", Op::Sub)],
    &[("*", Op::Mul), ("/", Op::Div), ("%", Op::Mod)],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::print::{print, strip_locs};
    use proptest::prelude::*;

    /// parse ∘ print ∘ parse is parse, and printing is a fixed point.
    fn round_trip(src: &str) -> Kernel {
        let k = parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let text = print(&k);
        let k2 = parse(&text).unwrap_or_else(|e| panic!("reparse: {e}\n{text}"));
        assert_eq!(strip_locs(&k), strip_locs(&k2), "printed as:\n{text}");
        assert_eq!(print(&k2), text);
        k
    }

    fn err(src: &str) -> ParseError {
        match parse(src) {
            Ok(k) => panic!("expected an error, parsed {k:?}"),
            Err(e) => e,
        }
    }

    fn var(s: &str) -> Expr {
        Expr::var(s)
    }

    const LISTING_2_2: &str = "
        params M;
        array tile {
          // r = 0
          for j in 0..M { rd[tid + j] };
          // r = 1
          for i in 0..M { wr[tid] }
        }";

    const LISTING_2_3: &str = "
        params N M;
        array tile {
          for r in 0..N {
            for i in 0..M { wr[tid] }
            sync;
            for j in 0..M { rd[tid + j] }
          }
        }";

    const LISTING_2_3_ALIGNED: &str = "
        params N M;
        array tile {
          for i in 0..M { wr[tid] }; sync;
          for r in 1..N {
            for j in 0..M { rd[tid + j] };
            for i in 0..M { wr[tid] }; sync
          }
          for j in 0..M { rd[tid + j] }
        }";

    const FIRST_ITER: &str = "
        params N;
        array A {
          wr[tid+1];
          for x in 0..N {
            if (x > 0) { wr[tid] };
            sync
          }
        }";

    const LAST_ITER: &str = "
        params N T;
        array A {
          for x in 0..N {
            sync;
            if (tid < T-1) { wr[tid+1] }
          };
          wr[tid + T]
        }";

    const LAST_ITER_FIRST_ITER: &str = "
        params N;
        array A {
          for x in 1..N+1 {
            for y in 1..x+1 { sync; wr[tid+x+y] };
            for z in N*2..N*3 { wr[tid+z+1]; sync }
          }
        }";

    #[test]
    fn paper_examples_round_trip() {
        for src in [
            LISTING_2_2,
            LISTING_2_3,
            LISTING_2_3_ALIGNED,
            FIRST_ITER,
            LAST_ITER,
            LAST_ITER_FIRST_ITER,
        ] {
            round_trip(src);
        }
    }

    #[test]
    fn listing_2_2_structure_and_locations() {
        let k = round_trip(LISTING_2_2);
        assert_eq!(k.name, "");
        assert_eq!(k.params, ["M"]);
        let a = &k.arrays[0];
        assert_eq!(
            (a.name.as_str(), a.scope, a.loc),
            ("tile", Scope::Shared, Loc::new(3, 9))
        );
        let expected = Stmt::Seq(vec![
            Stmt::For {
                var: "j".into(),
                lo: Expr::Int(0),
                hi: var("M"),
                body: Box::new(Stmt::Access(Access {
                    lock: None,
                    id: 0,
                    mode: Mode::Read,
                    index: vec![Expr::add(var("tid.x"), var("j"))],
                    loc: Loc::new(5, 27),
                    value: None,
                })),
                loc: Loc::new(5, 11),
            },
            Stmt::For {
                var: "i".into(),
                lo: Expr::Int(0),
                hi: var("M"),
                body: Box::new(Stmt::Access(Access {
                    lock: None,
                    id: 1,
                    mode: Mode::Write,
                    index: vec![var("tid.x")],
                    loc: Loc::new(7, 27),
                    value: None,
                })),
                loc: Loc::new(7, 11),
            },
        ]);
        assert_eq!(a.body, expected);
    }

    #[test]
    fn ids_restart_per_array_and_scopes_parse() {
        let k = round_trip(
            "locals x\nshared array A { rd[x]; sync; wr[x][0] }\nglobal array B { atomic[bid]; atomic[bid.y] }",
        );
        let ids = |a: &ArrayProtocol| {
            let mut v = Vec::new();
            a.body.accesses(&mut v);
            v.iter()
                .map(|a| (a.id, a.mode, a.index.len()))
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&k.arrays[0]), [(0, Mode::Read, 1), (1, Mode::Write, 2)]);
        assert_eq!(
            ids(&k.arrays[1]),
            [(0, Mode::Atomic, 1), (1, Mode::Atomic, 1)]
        );
        assert_eq!(k.arrays[1].scope, Scope::Global);
        let Stmt::Seq(items) = &k.arrays[1].body else {
            panic!()
        };
        let Stmt::Access(a) = &items[0] else { panic!() };
        assert_eq!(a.index, [var("bid.x")]);
    }

    #[test]
    fn else_if_chains_and_blocks_flatten() {
        let k = round_trip(
            "array A { if tid == 0 { wr[0] } else if (tid == 1) { { wr[1]; skip } } else { skip } {} }",
        );
        let Stmt::If { els, loc, .. } = &k.arrays[0].body else {
            panic!("{:?}", k.arrays[0].body)
        };
        assert_eq!(*loc, Loc::new(1, 11));
        let Stmt::If { then, els, loc, .. } = els.as_ref() else {
            panic!()
        };
        assert_eq!(*loc, Loc::new(1, 38));
        assert!(matches!(then.as_ref(), Stmt::Access(a) if a.id == 1));
        assert_eq!(**els, Stmt::Skip);
    }

    #[test]
    fn operator_precedence() {
        let e = |s: &str| {
            let k = parse(&format!("params a b c; assume {s} == 0")).unwrap();
            let Cond::Cmp(_, e, _) = &k.assumes[0] else {
                panic!()
            };
            e.clone()
        };
        let (a, b, c) = (var("a"), var("b"), var("c"));
        assert_eq!(
            e("a + b * c"),
            Expr::add(a.clone(), Expr::bin(Op::Mul, b.clone(), c.clone()))
        );
        assert_eq!(
            e("a - b - c"),
            Expr::sub(Expr::sub(a.clone(), b.clone()), c.clone())
        );
        assert_eq!(
            e("a << 1 + b"),
            Expr::bin(Op::Shl, a.clone(), Expr::add(Expr::Int(1), b.clone()))
        );
        assert_eq!(
            e("a | b ^ c & 1"),
            Expr::bin(
                Op::BitOr,
                a.clone(),
                Expr::bin(
                    Op::BitXor,
                    b.clone(),
                    Expr::bin(Op::BitAnd, c.clone(), Expr::Int(1))
                )
            )
        );
        assert_eq!(e("-3 * a"), Expr::bin(Op::Mul, Expr::Int(-3), a.clone()));
        assert_eq!(e("-a"), Expr::sub(Expr::Int(0), a.clone()));
        assert_eq!(e("-9223372036854775808"), Expr::Int(i64::MIN));
        assert_eq!(
            e("min(a, max(b, 2))"),
            Expr::bin(
                Op::Min,
                a.clone(),
                Expr::bin(Op::Max, b.clone(), Expr::Int(2))
            )
        );
        assert_eq!(
            e("(a < b || !(c >= 1) && true ? a : b)"),
            Expr::Ite(
                Box::new(Cond::Or(
                    Box::new(Cond::Cmp(Rel::Lt, a.clone(), b.clone())),
                    Box::new(Cond::And(
                        Box::new(Cond::Not(Box::new(Cond::Cmp(
                            Rel::Ge,
                            c.clone(),
                            Expr::Int(1)
                        )))),
                        Box::new(Cond::Bool(true))
                    ))
                )),
                Box::new(a.clone()),
                Box::new(b.clone())
            )
        );
        // Comparisons bind more loosely than `&`, unlike C.
        let k = parse("params a; assume a & 1 == 0").unwrap();
        assert_eq!(
            k.assumes[0],
            Cond::Cmp(
                Rel::Eq,
                Expr::bin(Op::BitAnd, a, Expr::Int(1)),
                Expr::Int(0)
            )
        );
    }

    #[test]
    fn builtins_and_declarations() {
        let k = round_trip(
            "params N; locals x, y\nassume N > 0 && blockDim.x == 32 && gridDim.z >= 1\n\
             array A { for i in bid.z..tid.y { wr[i + x + y + blockDim.y] } }\n\
             array B { for i in 0..N { rd[i] } }\nassume tid.z < 2",
        );
        assert_eq!(k.params, ["N"]);
        assert_eq!(k.locals, ["x", "y"]);
        assert_eq!(k.assumes.len(), 2);
        assert_eq!(k.arrays.len(), 2);
    }

    #[test]
    fn empty_and_comment_only_files_have_no_arrays() {
        assert_eq!(parse("").unwrap(), Kernel::default());
        assert_eq!(
            parse("# nothing\n// here\n/* at\n all */\n").unwrap(),
            Kernel::default()
        );
        assert_eq!(print(&Kernel::default()), "");
    }

    #[test]
    fn missing_brace_names_the_open_one() {
        let e = err("params N;\narray A {\n  for i in 0..N {\n    wr[tid]\n  \n");
        assert_eq!((e.line, e.column), (6, 1));
        assert!(
            e.message
                .contains("expected a statement or `}` to close the body of the `for` at 3:3"),
            "{e}"
        );
        let e = err("array A {\n  wr[tid]\narray B {}");
        assert_eq!((e.line, e.column), (3, 1));
        assert!(
            e.message
                .contains("close the array body opened at 1:9, found `array`"),
            "{e}"
        );
        assert_eq!(e.to_string(), format!("3:1: {}", e.message));
    }

    #[test]
    fn writes_may_say_what_they_store() {
        let k = parse("params N; array A { wr[0] = N + 1; rd[tid] }").unwrap();
        let Stmt::Seq(items) = &k.arrays[0].body else {
            panic!("{:?}", k.arrays[0].body)
        };
        let Stmt::Access(a) = &items[0] else {
            panic!("{items:?}")
        };
        assert_eq!(
            a.value,
            Some(Expr::add(Expr::var("N"), Expr::Int(1)).into())
        );
        let printed = crate::protocol::print::print(&k);
        assert!(printed.contains("wr[0] = N + 1"), "{printed}");
        assert_eq!(strip_locs(&parse(&printed).unwrap()), strip_locs(&k));
        assert!(err("array A { rd[0] = 1 }").message.contains("found `=`"));
        // A copy of a cell of an array the kernel never writes.
        let k = parse("params k; array A { wr[tid] = in[k][tid + 1] }").unwrap();
        let Stmt::Access(a) = &k.arrays[0].body else {
            panic!("{:?}", k.arrays[0].body)
        };
        let cell = Value::Read {
            array: "in".into(),
            index: vec![Expr::var("k"), Expr::add(Expr::var("tid.x"), Expr::Int(1))],
        };
        assert_eq!(a.value, Some(cell));
        let printed = crate::protocol::print::print(&k);
        assert!(
            printed.contains("wr[tid.x] = in[k][tid.x + 1]"),
            "{printed}"
        );
        assert_eq!(strip_locs(&parse(&printed).unwrap()), strip_locs(&k));
        assert!(err("array A { wr[0] = in[1 }")
            .message
            .contains("to close `[`"));
    }

    #[test]
    fn bad_tokens() {
        let e = err("array A {\n  wr[tid] @\n}");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (2, 11, "unexpected character `@`")
        );
        let e = err("params N; assume N = 1");
        assert_eq!((e.line, e.column), (1, 20));
        assert!(e.message.contains("did you mean `==`"), "{e}");
        let e = err("array A { wr[2N] }");
        assert_eq!((e.column, e.message.as_str()), (14, "invalid number `2N`"));
        let e = err("array A { wr[99999999999999999999] }");
        assert!(e.message.contains("too large"), "{e}");
        let e = err("array A { rd[1] ] }");
        assert_eq!(e.column, 17);
        let e = err("/* open");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (1, 1, "unterminated `/*` comment")
        );
        let e = err("wr[0]");
        assert!(
            e.message
                .contains("expected `params`, `locals`, `assume` or `array`, found `wr`"),
            "{e}"
        );
    }

    #[test]
    fn access_at_end_of_file() {
        let e = err("array A {\n  rd[");
        assert_eq!((e.line, e.column), (2, 6));
        assert_eq!(e.message, "expected an expression, found end of file");
        let e = err("array A { rd[0");
        assert!(
            e.message.contains("expected `]` to close `[` at 1:13"),
            "{e}"
        );
    }

    #[test]
    fn unknown_variable_has_its_position() {
        let e = err("params N;\narray A {\n  for i in 0..N { wr[tid + j] }\n}");
        assert_eq!((e.line, e.column), (3, 28));
        assert!(e.message.starts_with("unknown variable `j`"), "{e}");
        // A loop variable is not visible after its loop.
        let e = err("array A { for i in 0..1 { wr[i] } rd[i] }");
        assert_eq!(e.column, 38);
        // Nor in its own bounds.
        let e = err("array A { for i in 0..i { wr[i] } }");
        assert_eq!(e.column, 23);
    }

    #[test]
    fn declaration_errors() {
        let e = err("params N M N;");
        assert_eq!(
            (e.column, e.message.as_str()),
            (12, "`N` is already declared as a param at 1:8")
        );
        let e = err("params N; locals N;");
        assert!(e.message.contains("already declared as a param"), "{e}");
        let e = err("params N;\narray A { for N in 0..1 {} }");
        assert_eq!((e.line, e.column), (2, 15));
        assert!(e.message.contains("shadows a param declared at 1:8"), "{e}");
        let e = err("array A { for i in 0..1 { for i in 0..1 {} } }");
        assert!(
            e.message
                .contains("shadows the enclosing loop variable bound at 1:15"),
            "{e}"
        );
        let e = err("array A { for i in 0..1 {} }\nparams i;");
        assert!(e.message.contains("already a loop variable at 1:15"), "{e}");
        let e = err("array A {} array A {}");
        assert!(
            e.message.contains("array `A` is already declared at 1:1"),
            "{e}"
        );
        let e = err("params sync;");
        assert!(e.message.contains("`sync` is a keyword"), "{e}");
        // Sibling loops may reuse a name.
        round_trip("array A { for i in 0..1 { wr[i] } for i in 0..2 { rd[i] } }");
    }

    #[test]
    fn type_errors() {
        let e = err("params N; array A { if (N + 1) { wr[0] } }");
        assert_eq!(e.column, 24);
        assert!(
            e.message
                .starts_with("expected a condition, found a number"),
            "{e}"
        );
        let e = err("params N; array A { wr[N < 1] }");
        assert_eq!(
            (e.column, e.message.as_str()),
            (24, "expected a number, found a condition")
        );
        let e = err("params N; assume 0 < N < 2");
        assert!(e.message.contains("cannot be chained"), "{e}");
        let e = err("params N; assume blockDim > 0");
        assert!(
            e.message.contains("`.x`, `.y` or `.z` after `blockDim`"),
            "{e}"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let parens =
            |n: usize| format!("params a; assume {}a{} == 0", "(".repeat(n), ")".repeat(n));
        let blocks = |n: usize| format!("array A {}{}", "{".repeat(n), "}".repeat(n));
        assert!(parse(&parens(63)).is_ok());
        assert!(parse(&blocks(128)).is_ok());
        let fors: String = (1..128)
            .map(|i| format!("for i{i} in 0..(i0 + 1) * 2 {{ if (tid < 3) {{ sync "))
            .collect();
        let fors = format!(
            "array A {{ for i0 in 0..1 {{ {fors}{} }} }}",
            "} }".repeat(127)
        );
        assert!(err(&fors).message.contains("nested deeper"));
        let fors: String = (1..64)
            .map(|i| format!("for i{i} in 0..(i0 + 1) * 2 {{ if (tid < 3) {{ sync "))
            .collect();
        let fors = format!(
            "array A {{ for i0 in 0..1 {{ {fors}{} }} }}",
            "} }".repeat(63)
        );
        parse(&fors).unwrap();
        let e = err(&parens(100_000));
        assert_eq!(e.message, "expression nested deeper than 64 levels");
        let e = err(&blocks(100_000));
        assert_eq!(e.message, "blocks nested deeper than 128 levels");
        for prefix in ["-", "!", "min(a, "] {
            let e = err(&format!(
                "params a; array A {{ wr[{}a] }}",
                prefix.repeat(100_000)
            ));
            assert!(e.message.contains("nested deeper"), "{e}");
        }
    }

    #[test]
    fn non_utf8_names_the_first_bad_byte() {
        let e = parse_bytes(b"params N;\narray A { wr[\xff] }").unwrap_err();
        assert_eq!((e.line, e.column), (2, 14));
        assert!(e.message.contains("invalid UTF-8 (byte 0xff)"), "{e}");
        let mut bytes = "# é\nparams é".as_bytes().to_vec();
        bytes.extend_from_slice(&[0xc3]);
        let e = parse_bytes(&bytes).unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert_eq!(parse_bytes(b"params N;").unwrap().params, ["N"]);
    }

    #[test]
    fn flatten_is_idempotent_normal_form() {
        let w = |id| {
            Stmt::Access(Access {
                lock: None,
                id,
                mode: Mode::Write,
                index: vec![Expr::Int(0)],
                loc: Loc::NONE,
                value: None,
            })
        };
        let s = Stmt::Seq(vec![
            Stmt::Skip,
            Stmt::Seq(vec![w(0), Stmt::Seq(vec![])]),
            Stmt::Seq(vec![w(1)]),
        ]);
        assert_eq!(flatten(&s), Stmt::Seq(vec![w(0), w(1)]));
        assert_eq!(flatten(&Stmt::Seq(vec![Stmt::Seq(vec![w(0)])])), w(0));
        assert_eq!(flatten(&Stmt::Seq(vec![])), Stmt::Skip);
    }

    // Random kernels: every variable declared, loop variables named by depth.

    fn int() -> BoxedStrategy<Expr> {
        prop_oneof![3 => (-20i64..100).prop_map(Expr::Int), 1 => any::<i64>().prop_map(Expr::Int)]
            .boxed()
    }

    fn op() -> impl Strategy<Value = Op> + Clone {
        prop::sample::select(vec![
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Mod,
            Op::BitAnd,
            Op::BitOr,
            Op::BitXor,
            Op::Shl,
            Op::Shr,
            Op::Min,
            Op::Max,
        ])
    }

    fn rel() -> impl Strategy<Value = Rel> + Clone {
        prop::sample::select(vec![Rel::Eq, Rel::Ne, Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge])
    }

    fn cond_over(e: BoxedStrategy<Expr>) -> BoxedStrategy<Cond> {
        let atom = prop_oneof![
            1 => any::<bool>().prop_map(Cond::Bool),
            3 => (rel(), e.clone(), e).prop_map(|(r, a, b)| Cond::Cmp(r, a, b)),
        ];
        atom.prop_recursive(2, 8, 2, |c| {
            prop_oneof![
                (c.clone(), c.clone()).prop_map(|(a, b)| Cond::And(Box::new(a), Box::new(b))),
                (c.clone(), c.clone()).prop_map(|(a, b)| Cond::Or(Box::new(a), Box::new(b))),
                c.prop_map(|a| Cond::Not(Box::new(a))),
            ]
        })
        .boxed()
    }

    fn expr(vars: Vec<String>) -> BoxedStrategy<Expr> {
        let leaf = prop_oneof![int(), prop::sample::select(vars).prop_map(Expr::Var)];
        leaf.prop_recursive(3, 16, 3, |e| {
            prop_oneof![
                4 => (op(), e.clone(), e.clone()).prop_map(|(op, a, b)| Expr::bin(op, a, b)),
                1 => (cond_over(e.clone()), e.clone(), e)
                    .prop_map(|(c, a, b)| Expr::Ite(Box::new(c), Box::new(a), Box::new(b))),
            ]
        })
        .boxed()
    }

    fn stmt(vars: Vec<String>, depth: usize, budget: u32) -> BoxedStrategy<Stmt> {
        let mode = prop::sample::select(vec![Mode::Read, Mode::Write, Mode::Atomic]);
        let access =
            (mode, prop::collection::vec(expr(vars.clone()), 1..3)).prop_map(|(mode, index)| {
                Stmt::Access(Access {
                    lock: None,
                    id: 0,
                    mode,
                    index,
                    loc: Loc::NONE,
                    value: None,
                })
            });
        let leaf = prop_oneof![
            Just(Stmt::Skip),
            Just(Stmt::Sync(Loc::NONE)),
            Just(Stmt::GridSync(Loc::NONE)),
            Just(Stmt::WarpSync(Loc::NONE)),
            access
        ];
        if budget == 0 {
            return leaf.boxed();
        }
        let var = format!("i{depth}");
        let mut inner = vars.clone();
        inner.push(var.clone());
        let sub = || stmt(vars.clone(), depth, budget - 1);
        prop_oneof![
            3 => leaf,
            1 => prop::collection::vec(sub(), 0..4).prop_map(Stmt::Seq),
            1 => (cond_over(expr(vars.clone())), sub(), sub()).prop_map(|(cond, then, els)| Stmt::If {
                cond,
                then: Box::new(then),
                els: Box::new(els),
                loc: Loc::NONE,
            }),
            1 => (expr(vars.clone()), expr(vars.clone()), stmt(inner, depth + 1, budget - 1)).prop_map(
                move |(lo, hi, body)| Stmt::For { var: var.clone(), lo, hi, body: Box::new(body), loc: Loc::NONE }
            ),
        ]
        .boxed()
    }

    fn renumber(s: &mut Stmt, next: &mut u32) {
        match s {
            Stmt::Skip | Stmt::Sync(_) | Stmt::GridSync(_) | Stmt::WarpSync(_) => {}
            Stmt::Access(a) => {
                a.id = *next;
                *next += 1;
            }
            Stmt::Seq(items) => items.iter_mut().for_each(|s| renumber(s, next)),
            Stmt::If { then, els, .. } => {
                renumber(then, next);
                renumber(els, next);
            }
            Stmt::For { body, .. } => renumber(body, next),
        }
    }

    fn kernel() -> impl Strategy<Value = Kernel> {
        let vars: Vec<String> = [
            "N",
            "M",
            "x",
            "tid.x",
            "tid.y",
            "bid.x",
            "blockDim.x",
            "gridDim.z",
        ]
        .map(String::from)
        .into();
        let scope = prop::sample::select(vec![Scope::Shared, Scope::Global]);
        (
            prop::collection::vec(cond_over(expr(vars.clone())), 0..3),
            prop::collection::vec((scope, stmt(vars, 0, 3)), 0..3),
        )
            .prop_map(|(assumes, arrays)| Kernel {
                name: String::new(),
                params: vec!["N".into(), "M".into()],
                locals: vec!["x".into()],
                approximations: vec![],
                unknown_params: vec![],
                open_template_params: vec![],
                word_ranges: vec![],
                block_uniform: vec![],
                control_uniform: vec![],
                warp_sync: None,
                tickets: vec![],
                uniform_reads: vec![],
                carried: vec![],
                uniform_guards: vec![],
                undecided_guards: vec![],
                variants: Vec::new(),
                unnamed_axes: Vec::new(),
                ticket_reads: Vec::new(),
                assumes,
                arrays: arrays
                    .into_iter()
                    .enumerate()
                    .map(|(i, (scope, body))| {
                        let mut body = flatten(&body);
                        renumber(&mut body, &mut 0);
                        ArrayProtocol {
                            name: format!("A{i}"),
                            scope,
                            body,
                            loc: Loc::NONE,
                        }
                    })
                    .collect(),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn random_kernels_round_trip(k in kernel()) {
            let text = print(&k);
            let parsed = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(strip_locs(&parsed), k, "printed as:\n{}", text);
        }
    }
}

#[cfg(test)]
mod numbered_names {
    use super::parse;

    #[test]
    fn a_numbered_name_is_one_identifier_and_hash_still_comments() {
        let k = parse("locals x x#2; # a comment\narray A { wr[x#2] # another\n }").unwrap();
        assert_eq!(k.locals, vec!["x".to_string(), "x#2".to_string()]);
    }
}
