//! Sizes of the types a kernel template leaves dependent, read under one
//! instantiation's type arguments. libclang gives only the template's
//! body, where `IOType2 *` (`using IOType2 = typename IOTraits::Type2`,
//! `IOTraits = typename Traits::IOTraits`) has no size; the instantiation
//! `k<Bf16IOFp32W, 512>` says which structures those names are members of.

use super::Ty;

/// The type arguments of one instantiation, by position.
#[derive(Clone, Default)]
pub(super) struct Layouts {
    args: Vec<Option<Ty>>,
}

impl Layouts {
    pub(super) fn new(args: Vec<Option<Ty>>) -> Layouts {
        Layouts { args }
    }

    /// Bytes of one value of `ty`, through the instantiation's arguments
    /// where clang does not know them.
    pub(super) fn size_of(&self, ty: Ty) -> Option<u64> {
        ty.size_of().or_else(|| self.resolve(ty)?.size_of())
    }

    /// Alignment of `ty` in bytes, as `size_of`.
    pub(super) fn align_of(&self, ty: Ty) -> Option<u64> {
        ty.align_of().or_else(|| self.resolve(ty)?.align_of())
    }

    /// The type `ty` is in this instantiation, when it is a type parameter
    /// or a chain of member types below one. clang spells a dependent type
    /// canonically by its parameter's depth and position
    /// (`typename type-parameter-0-0::IOTraits::Type2`): the kernel's own
    /// parameters are depth 0.
    pub(super) fn resolve(&self, ty: Ty) -> Option<Ty> {
        if self.args.is_empty() {
            return None;
        }
        let spelling = ty.canonical().spelling();
        let s = unqualified(&spelling);
        // Members of a template specialization, pointers and arrays are
        // not followed.
        if s.contains(['<', '*', '&', '[', '(']) {
            return None;
        }
        let mut path = s.split("::");
        let index = parameter_index(path.next()?)?;
        let mut t = (*self.args.get(index)?)?;
        for member in path {
            t = t.member(member.trim())?;
        }
        Some(t)
    }
}

/// The position of the template type parameter `ty` is, when it is one of
/// the function's or kernel's own (`const T` spelled canonically `const
/// type-parameter-0-2`).
pub(super) fn type_parameter(ty: Ty) -> Option<usize> {
    parameter_index(unqualified(&ty.canonical().spelling()))
}

/// A canonical spelling without its leading `const`, `volatile` and
/// `typename`.
fn unqualified(spelling: &str) -> &str {
    let mut s = spelling.trim();
    while let Some(rest) = ["const ", "volatile ", "typename "]
        .iter()
        .find_map(|q| s.strip_prefix(q))
    {
        s = rest.trim_start();
    }
    s
}

/// The position of `type-parameter-0-N`, the spelling of a depth-0
/// template parameter.
fn parameter_index(s: &str) -> Option<usize> {
    s.strip_prefix("type-parameter-0-")?.parse().ok()
}
