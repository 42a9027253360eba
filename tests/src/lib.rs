//! Cross-game conformance checks for qi: generic checkers every game's test calls.
