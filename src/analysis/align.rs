//! See the module docs of the parent.
