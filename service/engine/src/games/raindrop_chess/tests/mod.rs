//! Rule tests, one file per section of docs/rules/raindrop_chess.md.

mod s10_editions;
mod s1_components;
mod s2_setup;
mod s3_turn;
mod s4_check;
mod s5_chess;
mod s6_end;
mod s7_hidden;
mod s8_ambiguities;
mod s8_clocks;
mod s9_termination;
mod support;
