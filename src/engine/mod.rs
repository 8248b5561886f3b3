//! Batch scans.
