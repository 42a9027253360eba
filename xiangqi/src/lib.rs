//! # xiangqi
//!
//! Xiangqi (Chinese chess) for qi: complete rules, FEN, ICCS/WXF/Chinese notation, a fast legal
//! move generator proven by perft, and evaluation. Built on [`game_core`].
