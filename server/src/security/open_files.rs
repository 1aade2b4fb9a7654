//! The open-files limit. Every connection is a file, and the usual soft limits (1,024 on Linux,
//! 256 on macOS) are below what the daemon may hold, so at start the soft limit is raised to the
//! hard one where the system allows; `listen` then sizes its budgets under what is in force.

/// Assumed where the limit cannot be read.
#[cfg(unix)]
const UNKNOWN: u64 = 1024;
/// What Windows allows in effect (see `raise`): room for every budget's maximum.
#[cfg(windows)]
const WINDOWS: u64 = 65_536;
/// No daemon needs more; macOS also refuses a soft limit above its `OPEN_MAX` (10,240).
#[cfg(unix)]
const CEILINGS: [u64; 2] = [65_536, 10_240];

/// Raises the soft limit as far as allowed and returns the limit now in force (again and again
/// the same, once raised).
pub fn raise() -> u64 {
    #[cfg(unix)]
    {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
            return UNKNOWN;
        };
        for ceiling in CEILINGS {
            let wanted = hard.min(ceiling);
            if wanted <= soft {
                return soft;
            }
            if setrlimit(Resource::RLIMIT_NOFILE, wanted, hard).is_ok() {
                return wanted;
            }
        }
        soft
    }
    // Windows counts sockets as kernel handles, with no per-process limit of this kind (the C
    // runtime's 512 streams apply to neither sockets nor the database): the budgets' maxima fit.
    #[cfg(windows)]
    WINDOWS
}
