//! Rule tests, one module per section of docs/rules/chuno.md. Test names start with the section
//! they check (`s3_…` checks §3, `s9_4_…` checks item 4 of §9).

mod s10_termination;
mod s14_edition_one;
mod s1_components;
mod s2_setup;
mod s3_playable;
mod s4_turn;
mod s5_chess;
mod s6_chuno_call;
mod s7_end;
mod s8_hidden;
mod s9_decisions;
mod support;
