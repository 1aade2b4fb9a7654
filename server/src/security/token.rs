//! The pairing token: 256 random bits, hex, in `$HARK_HOME/token` (mode 0600), created on first
//! need, compared in constant time, and replaced by a rotation that also ends every session the
//! old one opened.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use subtle::ConstantTimeEq;
use tokio::sync::watch;

/// The token file's name inside `HARK_HOME`.
pub const TOKEN_FILE: &str = "token";

/// The daemon's token, loaded lazily and kept in memory.
pub struct Tokens {
    file: Option<PathBuf>,
    current: Mutex<Option<String>>,
    rotations: watch::Sender<u64>,
}

impl Tokens {
    /// Tokens kept in `home` (or only in memory when there is none).
    pub fn new(home: Option<&Path>) -> Tokens {
        Tokens {
            file: home.map(|home| home.join(TOKEN_FILE)),
            current: Mutex::new(None),
            rotations: watch::Sender::new(0),
        }
    }

    /// The token, read from its file or created there on first need.
    ///
    /// # Errors
    /// When the file can be neither read nor written.
    pub fn current(&self) -> io::Result<String> {
        let mut current = self
            .current
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(token) = current.as_ref() {
            return Ok(token.clone());
        }
        let token = match &self.file {
            Some(file) => read_or_create(file)?,
            None => generate()?,
        };
        *current = Some(token.clone());
        Ok(token)
    }

    /// Whether `presented` is the token, in time that does not depend on how much matches.
    pub fn verify(&self, presented: &str) -> bool {
        let Ok(token) = self.current() else {
            return false;
        };
        presented.len() == token.len() && bool::from(presented.as_bytes().ct_eq(token.as_bytes()))
    }

    /// Replaces the token; the old one stops working at once, and sessions it opened end.
    ///
    /// # Errors
    /// When the new token cannot be written.
    pub fn rotate(&self) -> io::Result<String> {
        let token = generate()?;
        if let Some(file) = &self.file {
            write_private(file, &token)?;
        }
        *self
            .current
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = Some(token.clone());
        self.rotations.send_modify(|count| *count += 1);
        Ok(token)
    }

    /// How many times the token was rotated so far.
    pub fn generation(&self) -> u64 {
        *self.rotations.borrow()
    }

    /// Changes each time the token is rotated.
    pub fn rotations(&self) -> watch::Receiver<u64> {
        self.rotations.subscribe()
    }
}

/// A fresh token: 32 random bytes as 64 hex digits.
///
/// # Errors
/// When the system has no randomness to give.
pub fn generate() -> io::Result<String> {
    let mut bytes = [0_u8; 32];
    getrandom::fill(&mut bytes).map_err(|error| io::Error::other(error.to_string()))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// The token in `file`, or a new one written there.
///
/// # Errors
/// When the file can be neither read nor written.
pub fn read_or_create(file: &Path) -> io::Result<String> {
    match std::fs::read_to_string(file) {
        Ok(text) if is_well_formed(text.trim()) => Ok(text.trim().to_string()),
        Ok(_) => {
            tracing::warn!(file = %file.display(), "the token file is damaged; writing a new token");
            let token = generate()?;
            write_private(file, &token)?;
            Ok(token)
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            let token = generate()?;
            write_private(file, &token)?;
            Ok(token)
        }
        Err(error) => Err(error),
    }
}

fn is_well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// Writes `token` readable by this user only, replacing the file in one step.
///
/// # Errors
/// When the directory is not writable.
pub fn write_private(file: &Path, token: &str) -> io::Result<()> {
    hark_core::store::replace_privately(file, format!("{token}\n").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_created_private_kept_and_rotated() {
        let home = tempfile::tempdir().unwrap();
        let tokens = Tokens::new(Some(home.path()));
        let first = tokens.current().unwrap();
        assert!(is_well_formed(&first));
        let file = home.path().join(TOKEN_FILE);
        assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(tokens.verify(&first));
        assert!(!tokens.verify(&first[..63]));
        assert!(!tokens.verify(""));
        // Another daemon on the same home reads the same token.
        assert_eq!(Tokens::new(Some(home.path())).current().unwrap(), first);

        let rotations = tokens.rotations();
        let second = tokens.rotate().unwrap();
        assert_ne!(first, second);
        assert!(!tokens.verify(&first) && tokens.verify(&second));
        assert!(rotations.has_changed().unwrap());
        assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), second);
    }

    #[test]
    fn a_damaged_token_file_is_replaced() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join(TOKEN_FILE), "not a token").unwrap();
        let token = Tokens::new(Some(home.path())).current().unwrap();
        assert!(is_well_formed(&token));
    }
}
