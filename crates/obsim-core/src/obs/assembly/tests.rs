//! Tests of the burst assembler.
