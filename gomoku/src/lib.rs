//! # gomoku
//!
//! Gomoku and renju for qi: freestyle, standard and renju rules on square boards of 5 to 26,
//! pattern evaluation and threat-space search. Built on [`game_core`].
