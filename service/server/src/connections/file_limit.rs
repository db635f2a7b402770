//! The process's open-file limit (`RLIMIT_NOFILE`): raised to its hard limit at start-up, and
//! the default of `--max-connections` derived from it.

/// File descriptors kept for everything but client connections: the store's connections,
/// the metrics listener, logs, the runtime's own.
pub const RESERVED_FILES: u64 = 64;

/// Raises the soft open-file limit to the hard limit and returns the soft limit now in force.
pub fn raise_open_file_limit() -> std::io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

/// The soft open-file limit in force, or `None` when it cannot be read.
pub fn open_file_limit() -> Option<u64> {
    rlimit::getrlimit(rlimit::Resource::NOFILE)
        .ok()
        .map(|(soft, _hard)| soft)
}

/// The default of `--max-connections` under a soft limit of `files`: all but
/// [`RESERVED_FILES`], and at least one.
pub fn default_max_connections(files: u64) -> usize {
    usize::try_from(files.saturating_sub(RESERVED_FILES))
        .unwrap_or(usize::MAX)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_keeps_descriptors_for_the_rest_of_the_server() {
        assert_eq!(default_max_connections(1024), 960);
        assert_eq!(default_max_connections(65_536), 65_472);
        assert_eq!(default_max_connections(10), 1);
    }

    #[test]
    fn raising_leaves_the_soft_limit_at_the_hard_limit() {
        let raised = raise_open_file_limit().unwrap();
        assert_eq!(open_file_limit(), Some(raised));
        let (_soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        assert_eq!(raised, hard);
    }
}
