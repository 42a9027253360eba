//! # connect6
//!
//! Connect6 for qi (I-Chen Wu, 2005; Connect(19,19,6,2,1)): rules on boards of 7 to 25,
//! threat-based evaluation and search. Built on [`game_core`].
