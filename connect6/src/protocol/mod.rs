//! The engine protocols connect6 speaks to GUIs and tournament managers.

pub mod connectmore;
