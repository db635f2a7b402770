//! Rule tests, one module per section of docs/rules/pile_chess.md. Test names start with the
//! section they check (`s3_…` checks §3).

mod s13_first_edition;
mod s14_clocks;
mod s1_components;
mod s2_setup;
mod s3_castle;
mod s3_draw;
mod s3_en_passant;
mod s3_open;
mod s3_play;
mod s3_resolution;
mod s4_scoring;
mod s5_more_players;
mod s6_hidden;
mod s7_ambiguities;
mod s8_termination;
mod support;
