//! Replacing a file in one step: written beside it, synced, then renamed over it, so a crash
//! leaves the old contents or the new, never half of either. Readable by this user only.

use std::io::Write;
use std::path::Path;

/// Writes `contents` to `path` atomically, with mode 0600.
///
/// # Errors
/// When the directory cannot be written.
pub fn replace_privately(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&temp)?;
    file.write_all(contents)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temp, path)
}
