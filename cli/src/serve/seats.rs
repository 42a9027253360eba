//! Who may act for a side: every seat's secret key, the invitation that hands the one free
//! seat of a person-against-person game to a friend once, and the `Authorization` header that
//! carries a key.
//!
//! A key is 128 bits from the operating system's random source (`rand`'s `OsRng`), written
//! as 32 lowercase hexadecimal digits; keys are compared in constant time ([`same`]), so a
//! reply's timing says nothing about how much of a guess was right.

use axum::http::{HeaderMap, header};
use rand::TryRngCore;
use rand::rngs::OsRng;

/// The length of a key in hexadecimal digits (128 bits).
pub const KEY_LEN: usize = 32;

/// A secret: 32 lowercase hexadecimal digits (128 random bits).
#[derive(Clone)]
pub struct Key(String);

impl Key {
    /// A new key from the operating system's random source.
    ///
    /// # Errors
    /// The source's error (the system cannot give random bytes now).
    pub fn new() -> Result<Key, String> {
        let mut bytes = [0u8; KEY_LEN / 2];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| format!("the server cannot make a secret key now ({e}): try again"))?;
        Ok(Key(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The key's text, to hand to the one who holds it.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.0
    }

    /// Whether `presented` is this key, in time that does not depend on where they differ.
    #[must_use]
    pub fn matches(&self, presented: &str) -> bool {
        same(self.0.as_bytes(), presented.as_bytes())
    }
}

impl std::fmt::Debug for Key {
    /// Never prints the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

/// Whether `a` and `b` are equal, looking at every byte whatever the first difference (the
/// length is not secret: every key has [`KEY_LEN`] digits).
#[must_use]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// The key a request presents in `Authorization: Bearer KEY`, or `None` without that header.
///
/// # Errors
/// A reason when the header is there but is not `Bearer` and a key of [`KEY_LEN`]
/// hexadecimal digits (a request that means to present a key and fails to is refused, not
/// taken for a watcher's).
pub fn presented(headers: &HeaderMap) -> Result<Option<String>, String> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let expected = format!(
        "expected \"Authorization: Bearer KEY\" with the {KEY_LEN}-digit key the server gave \
         this seat"
    );
    let text = value
        .to_str()
        .map_err(|_| format!("the Authorization header is not plain text: {expected}"))?;
    let key = text
        .trim()
        .strip_prefix("Bearer ")
        .map(str::trim)
        .ok_or_else(|| format!("the Authorization header is not a bearer key: {expected}"))?;
    if key.len() != KEY_LEN || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "the Authorization header's key is malformed: {expected}"
        ));
    }
    Ok(Some(key.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_hex_and_differ() {
        let (a, b) = (Key::new().unwrap(), Key::new().unwrap());
        assert_eq!(a.text().len(), KEY_LEN);
        assert!(a.text().bytes().all(|c| c.is_ascii_hexdigit()));
        assert!(!a.matches(b.text()));
        assert!(a.matches(a.text()));
        assert!(!a.matches(&a.text()[1..]));
        assert_eq!(format!("{a:?}"), "Key(…)");
    }

    #[test]
    fn equal_only_when_every_byte_is() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"xbc"));
        assert!(!same(b"abc", b"abcd"));
        assert!(same(b"", b""));
    }

    #[test]
    fn authorization_header() {
        let mut h = HeaderMap::new();
        assert_eq!(presented(&h), Ok(None));
        let key = "0123456789abcdef0123456789ABCDEF";
        h.insert(
            header::AUTHORIZATION,
            format!("Bearer {key}").parse().unwrap(),
        );
        assert_eq!(presented(&h), Ok(Some(key.to_ascii_lowercase())));
        for bad in [
            "Basic abc",
            "Bearer 123",
            "Bearer zz3456789abcdef0123456789abcdef",
            "x",
        ] {
            h.insert(header::AUTHORIZATION, bad.parse().unwrap());
            assert!(
                presented(&h).unwrap_err().contains("Authorization"),
                "{bad}"
            );
        }
    }
}
