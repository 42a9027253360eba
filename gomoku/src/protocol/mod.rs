//! The engine protocols gomoku speaks to GUIs and tournament managers.

pub mod gomocup;
