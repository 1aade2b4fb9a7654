//! Windows' counterpart of mode 0700 on `HARK_HOME`: a protected DACL that grants the current
//! user full control and no one else anything, inherited by every file and folder created in
//! it (the token, the history and its write-ahead log, the config, the logs), so nothing
//! inherited from the folder above (a shared `C:\data`, say) reaches them. The SDDL is applied
//! with `windows-permissions`; the user's SID is the one `peer_owner` compares connections with.

use std::io;
use std::path::Path;
use windows_permissions::constants::{SeObjectType, SecurityInformation};
use windows_permissions::wrappers::{GetNamedSecurityInfo, SetNamedSecurityInfo};
use windows_permissions::{LocalBox, SecurityDescriptor};

/// Makes `folder` and what it will hold private to the current user.
///
/// # Errors
/// When the user cannot be found or Windows refuses the change.
pub fn restrict(folder: &Path) -> io::Result<()> {
    let descriptor: LocalBox<SecurityDescriptor> = owner_only(&current_user()?).parse()?;
    let dacl = descriptor
        .dacl()
        .ok_or_else(|| io::Error::other("the private access list did not parse"))?;
    SetNamedSecurityInfo(
        folder.as_os_str(),
        SeObjectType::SE_FILE_OBJECT,
        SecurityInformation::Dacl | SecurityInformation::ProtectedDacl,
        None,
        None,
        Some(dacl),
        None,
    )
}

/// The access list of `path` in SDDL, to check what `restrict` did.
///
/// # Errors
/// When Windows cannot read it.
pub fn access_list(path: &Path) -> io::Result<String> {
    let descriptor = GetNamedSecurityInfo(
        path.as_os_str(),
        SeObjectType::SE_FILE_OBJECT,
        SecurityInformation::Dacl,
    )?;
    Ok(descriptor.as_sddl()?.to_string_lossy().into_owned())
}

/// A protected DACL (`P`, nothing inherited from above) with one entry: full access (`FA`) for
/// `sid`, inherited by files (`OI`) and folders (`CI`) created below.
fn owner_only(sid: &str) -> String {
    format!("D:P(A;OICI;FA;;;{sid})")
}

/// The SID of the user this process runs as, as `S-1-5-…`.
fn current_user() -> io::Result<String> {
    crate::security::peer_owner::own_user()
        .map(|user| user.to_string())
        .ok_or_else(|| io::Error::other("Windows did not say which user runs Hark"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_access_list_names_one_user_and_blocks_inheritance() {
        assert_eq!(
            owner_only("S-1-5-21-1-2-3-1001"),
            "D:P(A;OICI;FA;;;S-1-5-21-1-2-3-1001)"
        );
    }

    #[test]
    fn a_home_is_made_private_to_this_user() {
        let home = tempfile::tempdir().unwrap();
        restrict(home.path()).unwrap();
        let list = access_list(home.path()).unwrap();
        let user = current_user().unwrap();
        assert!(list.starts_with("D:P"), "{list}");
        assert!(list.contains(&user), "{list}");
        assert_eq!(list.matches("(A;").count(), 1, "one entry only: {list}");
    }
}
