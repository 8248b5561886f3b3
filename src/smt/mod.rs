//! Z3 encoding of symbolic traces (Faial §6 "Quantification").
