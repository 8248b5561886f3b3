//! A thin, safe view of libclang's cursor API (through `clang-sys`, linked
//! at build time): parse a translation unit from memory, walk its cursors,
//! read operator kinds, types, locations and constant values.
//!
//! Each [`Tu`] owns its own index, so translation units can be parsed on
//! several threads at once.

use clang_sys::*;
use std::ffi::{c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;
use std::ptr;

// Available since libclang 17; the `clang-sys` feature set of this crate
// targets an older floor, so they are declared here.
extern "C" {
    fn clang_getCursorBinaryOperatorKind(cursor: CXCursor) -> c_int;
    fn clang_getCursorUnaryOperatorKind(cursor: CXCursor) -> c_int;
}

/// libclang's version string: a precompiled file is only read by the
/// clang that wrote it.
pub fn version() -> String {
    cx_string(unsafe { clang_getClangVersion() })
}

pub struct Diag {
    pub severity: u32,
    pub text: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

pub struct Tu {
    index: CXIndex,
    tu: CXTranslationUnit,
}

// The handles are only used by the thread that owns the `Tu`.
unsafe impl Send for Tu {}

impl Drop for Tu {
    fn drop(&mut self) {
        unsafe {
            if !self.tu.is_null() {
                clang_disposeTranslationUnit(self.tu);
            }
            clang_disposeIndex(self.index);
        }
    }
}

fn cx_string(s: CXString) -> String {
    unsafe {
        let p = clang_getCString(s);
        let out = if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        out
    }
}

fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

impl Tu {
    /// Parses `path` with `args`; `unsaved` maps virtual file names to their
    /// contents (the main file itself is one of them).
    pub fn parse(path: &str, args: &[String], unsaved: &[(String, Vec<u8>)]) -> Result<Tu, String> {
        Tu::parse_with(path, args, unsaved, CXTranslationUnit_KeepGoing, true)
    }

    /// Parses a header to be saved ([`Tu::save`]) and included by other
    /// units: clang leaves out what it does at the end of a unit.
    pub fn parse_header(
        path: &str,
        args: &[String],
        unsaved: &[(String, Vec<u8>)],
    ) -> Result<Tu, String> {
        Tu::parse_with(
            path,
            args,
            unsaved,
            CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete,
            false,
        )
    }

    fn parse_with(
        path: &str,
        args: &[String],
        unsaved: &[(String, Vec<u8>)],
        options: CXTranslationUnit_Flags,
        exclude_precompiled: bool,
    ) -> Result<Tu, String> {
        let c_path = c_string(path);
        let c_args: Vec<CString> = args.iter().map(|a| c_string(a)).collect();
        let arg_ptrs: Vec<*const i8> = c_args.iter().map(|a| a.as_ptr()).collect();
        let names: Vec<CString> = unsaved.iter().map(|(n, _)| c_string(n)).collect();
        let files: Vec<CXUnsavedFile> = unsaved
            .iter()
            .zip(&names)
            .map(|((_, body), name)| CXUnsavedFile {
                Filename: name.as_ptr(),
                Contents: body.as_ptr() as *const i8,
                Length: body.len() as _,
            })
            .collect();
        unsafe {
            // A unit's walks start at its top-level declarations; those of a
            // precompiled prelude are never the project's, and visiting them
            // would read every one back from the precompiled file.
            let index = clang_createIndex(c_int::from(exclude_precompiled), 0);
            let mut tu: CXTranslationUnit = ptr::null_mut();
            let code = clang_parseTranslationUnit2(
                index,
                c_path.as_ptr(),
                arg_ptrs.as_ptr(),
                arg_ptrs.len() as c_int,
                files.as_ptr() as *mut CXUnsavedFile,
                files.len() as c_uint,
                options,
                &mut tu,
            );
            let out = Tu { index, tu };
            if code != CXError_Success || tu.is_null() {
                return Err(format!(
                    "libclang could not parse the file (error code {code})"
                ));
            }
            Ok(out)
        }
    }

    /// Writes the unit as a precompiled header (`-include-pch`).
    pub fn save(&self, path: &str) -> Result<(), String> {
        let c_path = c_string(path);
        let code = unsafe {
            clang_saveTranslationUnit(self.tu, c_path.as_ptr(), CXSaveTranslationUnit_None)
        };
        if code == CXSaveError_None {
            Ok(())
        } else {
            Err(format!(
                "libclang could not save {path} (error code {code})"
            ))
        }
    }

    pub fn root(&self) -> Node<'_> {
        Node {
            c: unsafe { clang_getTranslationUnitCursor(self.tu) },
            _tu: self,
        }
    }

    pub fn diagnostics(&self) -> Vec<Diag> {
        unsafe {
            let n = clang_getNumDiagnostics(self.tu);
            (0..n)
                .map(|i| {
                    let d = clang_getDiagnostic(self.tu, i);
                    let severity = clang_getDiagnosticSeverity(d) as u32;
                    let text = cx_string(clang_formatDiagnostic(
                        d,
                        clang_defaultDiagnosticDisplayOptions(),
                    ));
                    let mut f: CXFile = ptr::null_mut();
                    let (mut line, mut column, mut offset) = (0, 0, 0);
                    clang_getExpansionLocation(
                        clang_getDiagnosticLocation(d),
                        &mut f,
                        &mut line,
                        &mut column,
                        &mut offset,
                    );
                    let file = if f.is_null() {
                        String::new()
                    } else {
                        cx_string(clang_getFileName(f))
                    };
                    clang_disposeDiagnostic(d);
                    Diag {
                        severity,
                        text,
                        file,
                        line,
                        column,
                    }
                })
                .collect()
        }
    }

    /// The functions device code called that are the host's only, as the
    /// file and byte range of each definition: the candidates clang's
    /// notes name ("call to __host__ function from __device__ function",
    /// or "declared here" after "reference to __host__ function … in
    /// __device__ function"). Functions of system headers are left out.
    pub fn host_only_callees(&self) -> Vec<(String, u32, u32)> {
        let mut out: Vec<(String, u32, u32)> = Vec::new();
        unsafe {
            for i in 0..clang_getNumDiagnostics(self.tu) {
                let d = clang_getDiagnostic(self.tu, i);
                let text = cx_string(clang_getDiagnosticSpelling(d));
                let named = text.starts_with("reference to __host__ function ")
                    && [
                        " in __device__ function",
                        " in __global__ function",
                        " in __host__ __device__ function",
                    ]
                    .iter()
                    .any(|t| text.ends_with(t));
                // Owned by `d`.
                let notes = clang_getChildDiagnostics(d);
                for j in 0..clang_getNumDiagnosticsInSet(notes) {
                    let n = clang_getDiagnosticInSet(notes, j);
                    let note = cx_string(clang_getDiagnosticSpelling(n));
                    let wanted = note
                        .contains("call to __host__ function from __device__ function")
                        || note.contains("call to __host__ function from __global__ function")
                        || (named && note.ends_with(" declared here"));
                    if wanted {
                        let c = clang_getCursor(self.tu, clang_getDiagnosticLocation(n));
                        let node = Node { c, _tu: self };
                        let function = [
                            kind::FUNCTION,
                            kind::METHOD,
                            kind::CONSTRUCTOR,
                            kind::FUNCTION_TEMPLATE,
                        ]
                        .contains(&node.kind());
                        if function && !node.in_system_header() {
                            let node = node.definition().unwrap_or(node);
                            let template = clang_getSpecializedCursorTemplate(node.c);
                            let node = if clang_Cursor_isNull(template) == 0
                                && clang_getCursorKind(template) == kind::FUNCTION_TEMPLATE
                            {
                                Node {
                                    c: template,
                                    _tu: self,
                                }
                            } else {
                                node
                            };
                            let file = node.pos().file;
                            let (start, end) = node.byte_range();
                            let site = (file, start, end);
                            if !site.0.is_empty() && !out.contains(&site) {
                                out.push(site);
                            }
                        }
                    }
                    clang_disposeDiagnostic(n);
                }
                clang_disposeDiagnostic(d);
            }
        }
        out
    }

    /// Every file the translation unit read, the main file included.
    pub fn inclusions(&self) -> Vec<PathBuf> {
        extern "C" fn visit(
            file: CXFile,
            _stack: *mut CXSourceLocation,
            _len: c_uint,
            data: CXClientData,
        ) {
            let out = unsafe { &mut *(data as *mut Vec<PathBuf>) };
            out.push(PathBuf::from(cx_string(unsafe { clang_getFileName(file) })));
        }
        let mut out: Vec<PathBuf> = Vec::new();
        unsafe {
            clang_getInclusions(self.tu, visit, &mut out as *mut Vec<PathBuf> as *mut c_void)
        };
        out
    }
}

pub const DIAG_ERROR: u32 = CXDiagnostic_Error as u32;

#[derive(Clone, Copy)]
pub struct Node<'tu> {
    c: CXCursor,
    _tu: &'tu Tu,
}

/// A cursor kept beyond the borrow of its translation unit, as a value
/// (a function a pointer holds). Only [`Node::at`] on a node of the same
/// translation unit turns it back into a node; a lowering handles one
/// translation unit, so its handles never outlive it.
#[derive(Clone, Copy)]
pub struct Handle(CXCursor);

impl PartialEq for Handle {
    fn eq(&self, other: &Handle) -> bool {
        unsafe { clang_equalCursors(self.0, other.0) != 0 }
    }
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Handle({})",
            cx_string(unsafe { clang_getCursorSpelling(self.0) })
        )
    }
}

/// Where a cursor is, as the user sees it (macro uses map to the use site).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl<'tu> Node<'tu> {
    pub fn handle(&self) -> Handle {
        Handle(self.c)
    }
    /// The node a handle from this node's translation unit stands for.
    pub fn at(&self, h: Handle) -> Node<'tu> {
        Node {
            c: h.0,
            _tu: self._tu,
        }
    }
    pub fn kind(&self) -> c_int {
        unsafe { clang_getCursorKind(self.c) }
    }
    pub fn is_null(&self) -> bool {
        unsafe { clang_Cursor_isNull(self.c) != 0 }
    }
    /// The source text from where the cursor was written (inside a
    /// macro's definition when a macro expanded to it) to the end of that
    /// file, at most `limit` bytes.
    pub fn written_text(&self, limit: usize) -> Option<String> {
        unsafe {
            let mut f: CXFile = ptr::null_mut();
            let (mut line, mut column, mut offset) = (0, 0, 0);
            clang_getSpellingLocation(
                clang_getCursorLocation(self.c),
                &mut f,
                &mut line,
                &mut column,
                &mut offset,
            );
            if f.is_null() {
                return None;
            }
            let mut size: usize = 0;
            let p = clang_getFileContents(self._tu.tu, f, &mut size);
            if p.is_null() {
                return None;
            }
            let bytes = std::slice::from_raw_parts(p as *const u8, size);
            let start = (offset as usize).min(bytes.len());
            let end = start.saturating_add(limit).min(bytes.len());
            Some(String::from_utf8_lossy(&bytes[start..end]).into_owned())
        }
    }

    pub fn spelling(&self) -> String {
        cx_string(unsafe { clang_getCursorSpelling(self.c) })
    }
    pub fn children(&self) -> Vec<Node<'tu>> {
        extern "C" fn visit(
            c: CXCursor,
            _parent: CXCursor,
            data: CXClientData,
        ) -> CXChildVisitResult {
            let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
            out.push(c);
            CXChildVisit_Continue
        }
        let mut out: Vec<CXCursor> = Vec::new();
        unsafe {
            clang_visitChildren(self.c, visit, &mut out as *mut Vec<CXCursor> as *mut c_void)
        };
        let top = unsafe { clang_isTranslationUnit(clang_getCursorKind(self.c)) } != 0;
        out.into_iter()
            .map(|c| Node { c, _tu: self._tu })
            // A unit's own top-level declarations (precompiled ones left out)
            // include every template instantiation it made; the source has
            // them only as its templates.
            .filter(|n| !(top && n.is_instantiation()))
            .collect()
    }
    /// A template's instantiation, which stands where its template does;
    /// an explicit specialization stands where it is written.
    fn is_instantiation(&self) -> bool {
        self.specialized_template().is_some_and(|t| unsafe {
            clang_equalLocations(
                clang_getCursorLocation(self.c),
                clang_getCursorLocation(t.c),
            ) != 0
        })
    }
    pub fn pos(&self) -> Pos {
        unsafe {
            let loc = clang_getCursorLocation(self.c);
            let mut file: CXFile = ptr::null_mut();
            let (mut line, mut column, mut offset) = (0, 0, 0);
            clang_getExpansionLocation(loc, &mut file, &mut line, &mut column, &mut offset);
            let file = if file.is_null() {
                String::new()
            } else {
                cx_string(clang_getFileName(file))
            };
            Pos { file, line, column }
        }
    }
    /// Whether the cursor sits in a system header (`-isystem`, the
    /// compiler's and the C library's headers).
    pub fn in_system_header(&self) -> bool {
        unsafe { clang_Location_isInSystemHeader(clang_getCursorLocation(self.c)) != 0 }
    }
    pub fn referenced(&self) -> Option<Node<'tu>> {
        let c = unsafe { clang_getCursorReferenced(self.c) };
        let n = Node { c, _tu: self._tu };
        (!n.is_null()).then_some(n)
    }
    pub fn definition(&self) -> Option<Node<'tu>> {
        let c = unsafe { clang_getCursorDefinition(self.c) };
        let n = Node { c, _tu: self._tu };
        (!n.is_null()).then_some(n)
    }
    /// The same cursor: statements of one macro expansion share their
    /// places in the file, so only identity tells them apart.
    pub fn same(&self, other: &Node) -> bool {
        unsafe { clang_equalCursors(self.c, other.c) != 0 }
    }
    /// A stable identity for declarations (the same declaration reached
    /// through different references compares equal).
    pub fn id(&self) -> u32 {
        unsafe { clang_hashCursor(clang_getCanonicalCursor(self.c)) }
    }
    /// Byte offset of the canonical declaration's location.
    pub fn canonical_offset(&self) -> u32 {
        unsafe {
            let loc = clang_getCursorLocation(clang_getCanonicalCursor(self.c));
            let mut file: CXFile = ptr::null_mut();
            let (mut line, mut column, mut offset) = (0, 0, 0);
            clang_getSpellingLocation(loc, &mut file, &mut line, &mut column, &mut offset);
            offset
        }
    }
    pub fn binop(&self) -> c_int {
        unsafe { clang_getCursorBinaryOperatorKind(self.c) }
    }
    pub fn unop(&self) -> c_int {
        unsafe { clang_getCursorUnaryOperatorKind(self.c) }
    }
    pub fn ty(&self) -> Ty {
        Ty(unsafe { clang_getCursorType(self.c) })
    }
    /// The type a function declaration returns.
    pub fn result_type(&self) -> Ty {
        Ty(unsafe { clang_getCursorResultType(self.c) })
    }
    pub fn has_attr(&self, kind: c_int) -> bool {
        self.children().iter().any(|c| c.kind() == kind)
    }
    /// The value of a constant integer expression, when clang can fold it.
    pub fn eval_int(&self) -> Option<i64> {
        unsafe {
            let r = clang_Cursor_Evaluate(self.c);
            if r.is_null() {
                return None;
            }
            let v = if clang_EvalResult_getKind(r) == CXEval_Int {
                if clang_EvalResult_isUnsignedInt(r) != 0 {
                    i64::try_from(clang_EvalResult_getAsUnsigned(r)).ok()
                } else {
                    Some(clang_EvalResult_getAsLongLong(r))
                }
            } else {
                None
            };
            clang_EvalResult_dispose(r);
            v
        }
    }
    /// The value of a floating-point constant expression clang can fold.
    pub fn eval_float(&self) -> Option<f64> {
        unsafe {
            let r = clang_Cursor_Evaluate(self.c);
            if r.is_null() {
                return None;
            }
            let v = (clang_EvalResult_getKind(r) == CXEval_Float)
                .then(|| clang_EvalResult_getAsDouble(r));
            clang_EvalResult_dispose(r);
            v
        }
    }
    pub fn num_args(&self) -> i32 {
        unsafe { clang_Cursor_getNumArguments(self.c) }
    }
    pub fn arg(&self, i: u32) -> Node<'tu> {
        Node {
            c: unsafe { clang_Cursor_getArgument(self.c, i) },
            _tu: self._tu,
        }
    }
    /// A call's arguments (a function's parameters), in order; none for
    /// other cursors.
    pub fn args(&self) -> Vec<Node<'tu>> {
        (0..self.num_args().max(0) as u32)
            .map(|i| self.arg(i))
            .collect()
    }
    /// Whether only its own translation unit can name the declaration
    /// (`static`, an anonymous namespace).
    pub fn internal_linkage(&self) -> bool {
        let l = unsafe { clang_getCursorLinkage(self.c) };
        l == CXLinkage_Internal || l == CXLinkage_NoLinkage
    }
    /// Declared `extern`: an `extern __shared__` array is the block's
    /// dynamic shared memory, whatever its name.
    pub fn is_extern(&self) -> bool {
        unsafe { clang_Cursor_getStorageClass(self.c) == CX_SC_Extern }
    }
    /// Declared `static`: a local one is one variable for every thread.
    pub fn is_static(&self) -> bool {
        unsafe { clang_Cursor_getStorageClass(self.c) == CX_SC_Static }
    }
    /// Declared `__shared__`. clang drops the attribute from a local
    /// `extern __shared__` array with a size, which it refuses and nvcc
    /// reads as the block's dynamic shared memory; device code has no
    /// other local `extern` variable.
    pub fn is_shared(&self) -> bool {
        self.has_attr(CXCursor_CUDASharedAttr)
            || (self.kind() == CXCursor_VarDecl && self.is_extern() && {
                // A local `extern`'s semantic parent is its namespace.
                let parent = unsafe { clang_getCursorLexicalParent(self.c) };
                [
                    CXCursor_FunctionDecl,
                    CXCursor_FunctionTemplate,
                    CXCursor_CXXMethod,
                ]
                .contains(&unsafe { clang_getCursorKind(parent) })
            })
    }
    pub fn is_definition(&self) -> bool {
        unsafe { clang_isCursorDefinition(self.c) != 0 }
    }
    /// For a template specialization, the template it comes from.
    pub fn specialized_template(&self) -> Option<Node<'tu>> {
        let c = unsafe { clang_getSpecializedCursorTemplate(self.c) };
        let n = Node { c, _tu: self._tu };
        (!n.is_null()).then_some(n)
    }
    /// A template's parameters, in order.
    /// A function's parameters, in order.
    pub fn params(&self) -> Vec<Node<'tu>> {
        self.children()
            .into_iter()
            .filter(|c| c.kind() == kind::PARM)
            .collect()
    }
    /// A member function declared `const`.
    pub fn is_const_method(&self) -> bool {
        unsafe { clang_CXXMethod_isConst(self.c) != 0 }
    }
    pub fn template_params(&self) -> Vec<Node<'tu>> {
        self.children()
            .into_iter()
            .filter(|c| {
                matches!(
                    c.kind(),
                    kind::TEMPLATE_TYPE_PARAM
                        | kind::NON_TYPE_TEMPLATE_PARAM
                        | kind::TEMPLATE_TEMPLATE_PARAM
                )
            })
            .collect()
    }
    /// A specialization's template arguments: integral ones as values,
    /// type ones as their spelling.
    pub fn template_args(&self) -> Vec<Result<i64, String>> {
        let params: Vec<Node> = self
            .specialized_template()
            .map(|t| t.template_params())
            .unwrap_or_default();
        unsafe {
            let n = clang_Cursor_getNumTemplateArguments(self.c);
            (0..n.max(0) as u32)
                .map(|i| {
                    if clang_Cursor_getTemplateArgumentKind(self.c, i)
                        == CXTemplateArgumentKind_Integral
                    {
                        // The signed reading extends the sign bit of the
                        // argument's width: `true` would be -1. The type is
                        // the template parameter's.
                        let unsigned = params.get(i as usize).is_some_and(|p| {
                            p.kind() == kind::NON_TYPE_TEMPLATE_PARAM && p.ty().is_unsigned()
                        });
                        if unsigned {
                            let v = clang_Cursor_getTemplateArgumentUnsignedValue(self.c, i);
                            Ok(i64::try_from(v).unwrap_or(i64::MAX))
                        } else {
                            Ok(clang_Cursor_getTemplateArgumentValue(self.c, i))
                        }
                    } else if clang_Cursor_getTemplateArgumentKind(self.c, i)
                        == CXTemplateArgumentKind_Pack
                    {
                        Err(self.pack_types().unwrap_or_default())
                    } else {
                        Err(Ty(clang_Cursor_getTemplateArgumentType(self.c, i)).spelling())
                    }
                })
                .collect()
        }
    }
    /// The types a function parameter pack (`Ts... xs`) takes in this
    /// specialization, as they read in its name: libclang gives a template's
    /// pack as one argument with no type.
    fn pack_types(&self) -> Option<String> {
        let template = self.specialized_template()?;
        let params: Vec<Node> = template
            .children()
            .into_iter()
            .filter(|p| p.kind() == kind::PARM)
            .collect();
        let is_pack = |p: &Node| p.tokens().iter().any(|(t, _)| t == "...");
        let [at] = params
            .iter()
            .enumerate()
            .filter(|(_, p)| is_pack(p))
            .map(|(i, _)| i)
            .collect::<Vec<_>>()[..]
        else {
            return None;
        };
        let args = self.args();
        let count = (args.len() + 1).checked_sub(params.len())?;
        let types: Vec<String> = args
            .get(at..at + count)?
            .iter()
            .map(|a| a.ty().spelling())
            .collect();
        Some(types.join(", "))
    }
    /// A specialization's template arguments as types: `None` for values
    /// and for what clang does not give as a type.
    pub fn template_arg_types(&self) -> Vec<Option<Ty>> {
        unsafe {
            let n = clang_Cursor_getNumTemplateArguments(self.c);
            (0..n.max(0) as u32)
                .map(|i| {
                    (clang_Cursor_getTemplateArgumentKind(self.c, i) == CXTemplateArgumentKind_Type)
                        .then(|| Ty(clang_Cursor_getTemplateArgumentType(self.c, i)))
                        .filter(|t| t.0.kind != CXType_Invalid)
                })
                .collect()
        }
    }
    /// The declarations an unresolved name in a template may refer to.
    pub fn overloaded_decls(&self) -> Vec<Node<'tu>> {
        unsafe {
            let n = clang_getNumOverloadedDecls(self.c);
            (0..n)
                .map(|i| Node {
                    c: clang_getOverloadedDecl(self.c, i),
                    _tu: self._tu,
                })
                .filter(|n| !n.is_null())
                .collect()
        }
    }
    /// The declaration of the expression's or declaration's type (a class
    /// template for a dependent specialization).
    /// The values of the enumerators of the node's type, when it is an
    /// enumeration.
    pub fn enumerators(&self) -> Vec<i64> {
        let decl = unsafe {
            clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(self.c)))
        };
        let decl = Node {
            c: decl,
            _tu: self._tu,
        };
        if decl.is_null() || decl.kind() != CXCursor_EnumDecl {
            return Vec::new();
        }
        decl.children()
            .iter()
            .filter(|c| c.kind() == CXCursor_EnumConstantDecl)
            .map(|c| unsafe { clang_getEnumConstantDeclValue(c.c) })
            .collect()
    }
    pub fn type_declaration(&self) -> Option<Node<'tu>> {
        let c = unsafe { clang_getTypeDeclaration(clang_getCursorType(self.c)) };
        let n = Node { c, _tu: self._tu };
        (!n.is_null() && n.kind() != CXCursor_NoDeclFound).then_some(n)
    }
    /// The class template an alias template names (`template <class T>
    /// using Acc32 = GAcc<T, int>`: `GAcc`), or this declaration.
    pub fn through_alias_template(&self) -> Node<'tu> {
        if self.kind() != CXCursor_TypeAliasTemplateDecl {
            return *self;
        }
        let aliased = self.children().into_iter().find_map(|c| {
            if c.kind() != CXCursor_TypeAliasDecl {
                return None;
            }
            let t = unsafe { clang_getTypedefDeclUnderlyingType(c.c) };
            let d = unsafe { clang_getTypeDeclaration(t) };
            let n = Node {
                c: d,
                _tu: self._tu,
            };
            (!n.is_null() && n.kind() != CXCursor_NoDeclFound).then_some(n)
        });
        aliased.unwrap_or(*self)
    }
    /// The declarations of a class's (or class template's) base classes,
    /// as written (`GBase` of `class GAcc : public GBase<T, N>`).
    pub fn base_declarations(&self) -> Vec<Node<'tu>> {
        self.children()
            .into_iter()
            .filter(|c| c.kind() == CXCursor_CXXBaseSpecifier)
            .filter_map(|b| {
                let t = unsafe { clang_getCursorType(b.c) };
                let d = unsafe { clang_getTypeDeclaration(t) };
                let n = Node {
                    c: d,
                    _tu: self._tu,
                };
                if !n.is_null() && n.kind() != CXCursor_NoDeclFound {
                    return Some(n);
                }
                // A dependent base names its template.
                b.children()
                    .into_iter()
                    .find(|c| c.kind() == CXCursor_TemplateRef)
                    .and_then(|r| r.referenced())
            })
            .collect()
    }
    /// The fields of the structure this expression's type is, through
    /// typedefs (`typedef struct { … } Matrix;`); empty for other types.
    pub fn record_fields(&self) -> Vec<Node<'tu>> {
        let Some(n) = self.canonical_declaration() else {
            return Vec::new();
        };
        let declared: Vec<Node<'tu>> = n
            .children()
            .into_iter()
            .filter(|f| f.kind() == CXCursor_FieldDecl)
            .collect();
        if !declared.is_empty() {
            return declared;
        }
        // An implicit instantiation of a class template (`View<float>`)
        // shows no children; its type still lists the fields it
        // instantiates.
        field_cursors(self.ty())
            .into_iter()
            .map(|c| Node { c, _tu: self._tu })
            .collect()
    }
    /// Whether this expression's type is a structure whose value is its
    /// fields, as `record_fields` lists them: no union, no base class.
    pub fn is_plain_record(&self) -> bool {
        let Some(n) = self.canonical_declaration() else {
            return false;
        };
        let has_base = |d: &Node| {
            d.children()
                .iter()
                .any(|f| f.kind() == CXCursor_CXXBaseSpecifier)
        };
        // An instantiation's bases are written in its template.
        matches!(n.kind(), kind::STRUCT | kind::CLASS)
            && !has_base(&n)
            && !n.specialized_template().is_some_and(|t| has_base(&t))
    }
    /// The declaration of this expression's type, through typedefs.
    fn canonical_declaration(&self) -> Option<Node<'tu>> {
        let c = unsafe {
            clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(self.c)))
        };
        let n = Node { c, _tu: self._tu };
        (!n.is_null() && n.kind() != CXCursor_NoDeclFound).then_some(n)
    }
    /// The translation unit the cursor belongs to.
    pub fn unit(&self) -> Node<'tu> {
        self._tu.root()
    }
    pub fn semantic_parent(&self) -> Option<Node<'tu>> {
        let c = unsafe { clang_getCursorSemanticParent(self.c) };
        let n = Node { c, _tu: self._tu };
        (!n.is_null()).then_some(n)
    }
    pub fn is_attribute(&self) -> bool {
        unsafe { clang_isAttribute(self.kind()) != 0 }
    }
    pub fn is_expression(&self) -> bool {
        unsafe { clang_isExpression(self.kind()) != 0 }
    }
    /// First and last line of the cursor's extent.
    pub fn lines(&self) -> (u32, u32) {
        unsafe {
            let r = clang_getCursorExtent(self.c);
            let (mut l1, mut l2, mut col, mut off) = (0, 0, 0, 0);
            clang_getExpansionLocation(
                clang_getRangeStart(r),
                ptr::null_mut(),
                &mut l1,
                &mut col,
                &mut off,
            );
            clang_getExpansionLocation(
                clang_getRangeEnd(r),
                ptr::null_mut(),
                &mut l2,
                &mut col,
                &mut off,
            );
            (l1, l2)
        }
    }
    /// Byte offset of the cursor's start in its file (expansion location).
    pub fn offset(&self) -> u32 {
        unsafe {
            let loc = clang_getRangeStart(clang_getCursorExtent(self.c));
            let (mut line, mut column, mut offset) = (0, 0, 0);
            clang_getExpansionLocation(loc, ptr::null_mut(), &mut line, &mut column, &mut offset);
            offset
        }
    }
    /// Byte offsets of the cursor's start and end in its file (expansion
    /// locations).
    pub fn byte_range(&self) -> (u32, u32) {
        unsafe {
            let r = clang_getCursorExtent(self.c);
            let (mut line, mut column, mut start, mut end) = (0, 0, 0, 0);
            clang_getExpansionLocation(
                clang_getRangeStart(r),
                ptr::null_mut(),
                &mut line,
                &mut column,
                &mut start,
            );
            clang_getExpansionLocation(
                clang_getRangeEnd(r),
                ptr::null_mut(),
                &mut line,
                &mut column,
                &mut end,
            );
            (start, end)
        }
    }
    /// Whether the cursor starts in the translation unit's main file, not
    /// in a header it includes.
    pub fn in_main_file(&self) -> bool {
        unsafe {
            let loc = clang_getRangeStart(clang_getCursorExtent(self.c));
            clang_Location_isFromMainFile(loc) != 0
        }
    }
    /// The cursor's tokens, with their byte offsets.
    pub fn tokens(&self) -> Vec<(String, u32)> {
        unsafe {
            let tu = self._tu.tu;
            let mut toks: *mut CXToken = ptr::null_mut();
            let mut n: c_uint = 0;
            clang_tokenize(tu, clang_getCursorExtent(self.c), &mut toks, &mut n);
            if toks.is_null() {
                return Vec::new();
            }
            let out = (0..n as usize)
                .map(|i| {
                    let t = *toks.add(i);
                    let text = cx_string(clang_getTokenSpelling(tu, t));
                    let loc = clang_getTokenLocation(tu, t);
                    let (mut line, mut column, mut offset) = (0, 0, 0);
                    clang_getExpansionLocation(
                        loc,
                        ptr::null_mut(),
                        &mut line,
                        &mut column,
                        &mut offset,
                    );
                    (text, offset)
                })
                .collect();
            clang_disposeTokens(tu, toks, n);
            out
        }
    }
}

#[derive(Clone, Copy)]
pub struct Ty(CXType);

impl Ty {
    pub fn kind(&self) -> c_int {
        self.0.kind
    }
    pub fn canonical(&self) -> Ty {
        Ty(unsafe { clang_getCanonicalType(self.0) })
    }
    pub fn pointee(&self) -> Ty {
        Ty(unsafe { clang_getPointeeType(self.0) })
    }
    /// Bytes of one value of the type, when it is complete and not
    /// dependent.
    pub fn size_of(&self) -> Option<u64> {
        u64::try_from(unsafe { clang_Type_getSizeOf(self.0) })
            .ok()
            .filter(|&n| n > 0)
    }
    /// Alignment in bytes of the type, when it is complete and not
    /// dependent.
    pub fn align_of(&self) -> Option<u64> {
        u64::try_from(unsafe { clang_Type_getAlignOf(self.0) })
            .ok()
            .filter(|&n| n > 0)
    }
    /// The element type of an array type.
    pub fn element(&self) -> Ty {
        Ty(unsafe { clang_getArrayElementType(self.canonical().0) })
    }
    /// The number of elements of a constant-size array type, through a
    /// reference to one.
    pub fn array_size(&self) -> Option<i64> {
        let t = if self.is_reference() {
            self.pointee()
        } else {
            *self
        };
        let n = unsafe { clang_getArraySize(t.canonical().0) };
        (n >= 0).then_some(n)
    }
    pub fn spelling(&self) -> String {
        cx_string(unsafe { clang_getTypeSpelling(self.0) })
    }
    pub fn is_pointer(&self) -> bool {
        let k = self.canonical().kind();
        k == CXType_Pointer || k == CXType_LValueReference && self.canonical().pointee().is_array()
    }
    /// A pointer type, and not a reference to an array.
    pub fn is_plain_pointer(&self) -> bool {
        self.canonical().kind() == CXType_Pointer
    }
    pub fn is_array(&self) -> bool {
        let k = self.canonical().kind();
        k == CXType_ConstantArray
            || k == CXType_IncompleteArray
            || k == CXType_VariableArray
            || k == CXType_DependentSizedArray
    }
    pub fn is_reference(&self) -> bool {
        let k = self.canonical().kind();
        k == CXType_LValueReference || k == CXType_RValueReference
    }
    pub fn is_integral(&self) -> bool {
        let k = self.canonical().kind();
        (CXType_Bool..=CXType_Int128).contains(&k) || k == CXType_Enum
    }
    /// An unsigned integer type, whose arithmetic wraps below zero.
    #[allow(non_upper_case_globals)]
    pub fn is_unsigned(&self) -> bool {
        matches!(
            self.canonical().kind(),
            CXType_Bool
                | CXType_Char_U
                | CXType_UChar
                | CXType_UShort
                | CXType_UInt
                | CXType_ULong
                | CXType_ULongLong
                | CXType_UInt128
        )
    }
    /// The values an integer type narrower than 32 bits holds.
    #[allow(non_upper_case_globals)]
    pub fn int_range(&self) -> Option<(i64, i64)> {
        Some(match self.canonical().kind() {
            CXType_Bool => (0, 1),
            CXType_Char_U | CXType_UChar => (0, u8::MAX.into()),
            CXType_Char_S | CXType_SChar => (i8::MIN.into(), i8::MAX.into()),
            CXType_UShort => (0, u16::MAX.into()),
            CXType_Short => (i16::MIN.into(), i16::MAX.into()),
            _ => return None,
        })
    }
    /// The values a 32-bit integer type holds.
    #[allow(non_upper_case_globals)]
    pub fn word_range(&self) -> Option<(i64, i64)> {
        Some(match self.canonical().kind() {
            CXType_Int => (i32::MIN.into(), i32::MAX.into()),
            CXType_UInt => (0, u32::MAX.into()),
            _ => return None,
        })
    }
    pub fn is_floating(&self) -> bool {
        let k = self.canonical().kind();
        (CXType_Float..=CXType_LongDouble).contains(&k) || k == CXType_Half || k == CXType_Float16
    }
    pub fn is_record(&self) -> bool {
        self.canonical().kind() == CXType_Record
    }
    /// Whether a record type derives from another: a pointer to it then
    /// converts to a pointer to a base.
    pub fn has_bases(&self) -> bool {
        extern "C" fn visit(c: CXCursor, _p: CXCursor, data: CXClientData) -> CXChildVisitResult {
            if unsafe { clang_getCursorKind(c) } == CXCursor_CXXBaseSpecifier {
                unsafe { *(data as *mut bool) = true };
                return CXChildVisit_Break;
            }
            CXChildVisit_Continue
        }
        let mut found = false;
        unsafe {
            let d = clang_getTypeDeclaration(self.canonical().0);
            if clang_Cursor_isNull(d) == 0 {
                clang_visitChildren(d, visit, &mut found as *mut bool as *mut c_void);
            }
        }
        found
    }
    /// A type clang leaves open in a template: `<dependent type>`, or one
    /// it does not expose.
    pub fn is_dependent(&self) -> bool {
        let k = self.canonical().kind();
        k == CXType_Unexposed || k == CXType_Invalid || k == CXType_Dependent
    }
    /// The type a structure declares under `name`: a member `typedef` or
    /// alias (`using Type2 = __half2;`) as what it names, or a nested
    /// structure.
    #[allow(non_upper_case_globals)]
    pub fn member(&self, name: &str) -> Option<Ty> {
        extern "C" fn visit(c: CXCursor, _p: CXCursor, data: CXClientData) -> CXChildVisitResult {
            let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
            out.push(c);
            CXChildVisit_Continue
        }
        unsafe {
            let decl = clang_getTypeDeclaration(clang_getCanonicalType(self.0));
            if clang_Cursor_isNull(decl) != 0 {
                return None;
            }
            let mut members: Vec<CXCursor> = Vec::new();
            clang_visitChildren(
                decl,
                visit,
                &mut members as *mut Vec<CXCursor> as *mut c_void,
            );
            members.into_iter().find_map(|c| {
                if cx_string(clang_getCursorSpelling(c)) != name {
                    return None;
                }
                let t = match clang_getCursorKind(c) {
                    CXCursor_TypedefDecl | CXCursor_TypeAliasDecl => {
                        clang_getTypedefDeclUnderlyingType(c)
                    }
                    CXCursor_StructDecl | CXCursor_ClassDecl | CXCursor_UnionDecl => {
                        clang_getCursorType(c)
                    }
                    _ => return None,
                };
                (t.kind != CXType_Invalid).then_some(Ty(t))
            })
        }
    }
    /// The fields of a structure, by name and type, as this (complete) type
    /// instantiates them. Fields of base classes are not listed.
    fn fields(&self) -> Vec<(String, Ty)> {
        field_cursors(*self)
            .into_iter()
            .map(|f| unsafe {
                (
                    cx_string(clang_getCursorSpelling(f)),
                    Ty(clang_getCursorType(f)),
                )
            })
            .collect()
    }
    /// The type of the field `name` of a structure (see [`Ty::fields`]).
    pub fn field(&self, name: &str) -> Option<Ty> {
        self.fields()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
            .filter(|t| t.0.kind != CXType_Invalid)
    }
    /// Whether a value of the type may hold memory: a pointer, a
    /// reference or an array among its fields (through nested structures),
    /// or a type whose fields clang does not list (a lambda's closure, a
    /// dependent type).
    pub fn holds_pointers(&self) -> bool {
        fn walk(t: Ty, depth: u32) -> bool {
            let c = t.canonical();
            if c.is_pointer() || c.is_reference() || c.is_array() {
                return true;
            }
            if !c.is_record() {
                return c.is_dependent();
            }
            if depth > 8 || c.spelling().contains("lambda") {
                return true;
            }
            c.fields().into_iter().any(|(_, f)| walk(f, depth + 1))
        }
        walk(*self, 0)
    }
    pub fn is_const_qualified(&self) -> bool {
        unsafe { clang_isConstQualifiedType(self.0) != 0 }
    }
}

/// The field declarations of a structure type, in order, as the (complete)
/// type instantiates them; fields of base classes are not listed.
fn field_cursors(ty: Ty) -> Vec<CXCursor> {
    extern "C" fn visit(f: CXCursor, data: CXClientData) -> CXVisitorResult {
        let out = unsafe { &mut *(data as *mut Vec<CXCursor>) };
        out.push(f);
        CXVisit_Continue
    }
    let mut fields: Vec<CXCursor> = Vec::new();
    unsafe {
        clang_Type_visitFields(
            ty.canonical().0,
            visit,
            &mut fields as *mut Vec<CXCursor> as *mut c_void,
        );
    }
    fields
}

pub mod kind {
    pub use clang_sys::{
        CXCursor_ArraySubscriptExpr as ARRAY_SUBSCRIPT, CXCursor_AsmStmt as ASM,
        CXCursor_BinaryOperator as BINARY, CXCursor_BreakStmt as BREAK,
        CXCursor_CStyleCastExpr as C_CAST, CXCursor_CUDAConstantAttr as CUDA_CONSTANT,
        CXCursor_CUDADeviceAttr as CUDA_DEVICE, CXCursor_CUDAGlobalAttr as CUDA_GLOBAL,
        CXCursor_CXXBoolLiteralExpr as BOOL_LIT, CXCursor_CXXConstCastExpr as CONST_CAST,
        CXCursor_CXXDeleteExpr as DELETE, CXCursor_CXXForRangeStmt as FOR_RANGE,
        CXCursor_CXXFunctionalCastExpr as FUNCTIONAL_CAST, CXCursor_CXXMethod as METHOD,
        CXCursor_CXXNewExpr as NEW, CXCursor_CXXNullPtrLiteralExpr as NULLPTR,
        CXCursor_CXXReinterpretCastExpr as REINTERPRET_CAST,
        CXCursor_CXXStaticCastExpr as STATIC_CAST, CXCursor_CXXThisExpr as THIS,
        CXCursor_CXXThrowExpr as THROW, CXCursor_CXXTryStmt as TRY, CXCursor_CallExpr as CALL,
        CXCursor_CaseStmt as CASE, CXCursor_CharacterLiteral as CHAR_LIT,
        CXCursor_ClassDecl as CLASS, CXCursor_ClassTemplate as CLASS_TEMPLATE,
        CXCursor_ClassTemplatePartialSpecialization as CLASS_TEMPLATE_PARTIAL,
        CXCursor_CompoundAssignOperator as COMPOUND_ASSIGN, CXCursor_CompoundStmt as COMPOUND,
        CXCursor_ConditionalOperator as CONDITIONAL, CXCursor_Constructor as CONSTRUCTOR,
        CXCursor_ContinueStmt as CONTINUE, CXCursor_ConversionFunction as CONVERSION,
        CXCursor_DeclRefExpr as DECL_REF, CXCursor_DeclStmt as DECL_STMT,
        CXCursor_DefaultStmt as DEFAULT, CXCursor_DoStmt as DO,
        CXCursor_EnumConstantDecl as ENUM_CONSTANT, CXCursor_EnumDecl as ENUM,
        CXCursor_FieldDecl as FIELD, CXCursor_FloatingLiteral as FLOAT_LIT,
        CXCursor_ForStmt as FOR, CXCursor_FunctionDecl as FUNCTION,
        CXCursor_FunctionTemplate as FUNCTION_TEMPLATE, CXCursor_GNUNullExpr as GNU_NULL,
        CXCursor_GotoStmt as GOTO, CXCursor_IfStmt as IF, CXCursor_InitListExpr as INIT_LIST,
        CXCursor_IntegerLiteral as INT_LIT, CXCursor_LabelStmt as LABEL,
        CXCursor_LambdaExpr as LAMBDA, CXCursor_LinkageSpec as LINKAGE_SPEC,
        CXCursor_MSAsmStmt as MS_ASM, CXCursor_MemberRef as MEMBER,
        CXCursor_MemberRefExpr as MEMBER_REF, CXCursor_Namespace as NAMESPACE,
        CXCursor_NonTypeTemplateParameter as NON_TYPE_TEMPLATE_PARAM,
        CXCursor_NullStmt as NULL_STMT, CXCursor_OverloadedDeclRef as OVERLOADED_REF,
        CXCursor_ParenExpr as PAREN, CXCursor_ParmDecl as PARM, CXCursor_ReturnStmt as RETURN,
        CXCursor_SizeOfPackExpr as SIZE_OF_PACK, CXCursor_StaticAssert as STATIC_ASSERT,
        CXCursor_StmtExpr as STMT_EXPR, CXCursor_StringLiteral as STRING_LIT,
        CXCursor_StructDecl as STRUCT, CXCursor_SwitchStmt as SWITCH,
        CXCursor_TemplateRef as TEMPLATE_REF,
        CXCursor_TemplateTemplateParameter as TEMPLATE_TEMPLATE_PARAM,
        CXCursor_TemplateTypeParameter as TEMPLATE_TYPE_PARAM, CXCursor_TypeRef as TYPE_REF,
        CXCursor_UnaryExpr as UNARY_EXPR, CXCursor_UnaryOperator as UNARY,
        CXCursor_UnexposedAttr as UNEXPOSED_ATTR, CXCursor_UnexposedDecl as UNEXPOSED_DECL,
        CXCursor_UnexposedExpr as UNEXPOSED, CXCursor_VarDecl as VAR, CXCursor_WhileStmt as WHILE,
    };
    /// The translation unit's cursor as libclang 15 and later number it;
    /// the bindings' constant is the older number.
    pub const TRANSLATION_UNIT: std::os::raw::c_int = 350;
}

pub mod op {
    pub const MUL: i32 = 3;
    pub const DIV: i32 = 4;
    pub const REM: i32 = 5;
    pub const ADD: i32 = 6;
    pub const SUB: i32 = 7;
    pub const SHL: i32 = 8;
    pub const SHR: i32 = 9;
    pub const LT: i32 = 11;
    pub const GT: i32 = 12;
    pub const LE: i32 = 13;
    pub const GE: i32 = 14;
    pub const EQ: i32 = 15;
    pub const NE: i32 = 16;
    pub const AND: i32 = 17;
    pub const XOR: i32 = 18;
    pub const OR: i32 = 19;
    pub const LAND: i32 = 20;
    pub const LOR: i32 = 21;
    pub const ASSIGN: i32 = 22;
    pub const COMMA: i32 = 33;

    pub const POST_INC: i32 = 1;
    pub const POST_DEC: i32 = 2;
    pub const PRE_INC: i32 = 3;
    pub const PRE_DEC: i32 = 4;
    pub const ADDR_OF: i32 = 5;
    pub const DEREF: i32 = 6;
    pub const PLUS: i32 = 7;
    pub const MINUS: i32 = 8;
    pub const NOT: i32 = 9;
    pub const LNOT: i32 = 10;
}
