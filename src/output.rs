//! Files that appear whole or not at all, and stdout whose errors name it.
//!
//! Output is written to a temporary file in the destination's directory, flushed and synced,
//! then renamed over the destination. A run that fails or is killed part-way leaves nothing
//! under the requested name (the temporary file is removed on drop), and readers never see
//! a half-written bank.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tempfile::NamedTempFile;

/// The buffer between a bank's rows and its file or stdout: large enough that writes to
/// the kernel are few (64 KiB, about 340 rows of 9×9 grids).
pub const BUFFER_BYTES: usize = 1 << 16;

/// The directory `dest` is to be written in.
fn dir_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Whether `a` and `b` name one place: the same file name in the same directory, however
/// each path spells it (`bank.csv`, `./bank.csv`, `out/../bank.csv`, or a symbolic link to
/// it, which is written through: see [`AtomicFile::create`]), whether or not the file
/// exists yet. Paths whose directory cannot be looked at are compared as written.
pub fn same_place(a: &Path, b: &Path) -> bool {
    match (place(a), place(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// Where `path` names a file: its directory's canonical path and its file name, after any
/// symbolic link to a file.
fn place(path: &Path) -> Option<(PathBuf, std::ffi::OsString)> {
    let path = followed(path);
    Some((
        std::fs::canonicalize(dir_of(&path)).ok()?,
        path.file_name()?.to_owned(),
    ))
}

/// `path`, or the file it names if it is a symbolic link to one (a dangling link stays as
/// it is).
fn followed(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
        }
        _ => path.to_owned(),
    }
}

/// What tells a file's contents apart without reading them: its length and modification
/// time, and on Unix its device and inode. A file written since, or renamed over (as every
/// bank is published), gives another stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    id: (u64, u64),
}

impl Stamp {
    /// The stamp of the file at `path`.
    pub fn of(path: &Path) -> Result<Stamp> {
        let meta =
            std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let id = (0, 0);
        Ok(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            id,
        })
    }
}

/// A file being written under a temporary name, published by [`AtomicFile::commit`].
#[derive(Debug)]
pub struct AtomicFile {
    temp: BufWriter<NamedTempFile>,
    dest: PathBuf,
    replace: bool,
    /// The file this one is to replace, as it was read ([`AtomicFile::over`]).
    over: Option<Stamp>,
}

impl AtomicFile {
    /// Refuses `dest` if its directory cannot be looked at (it does not exist, say), if it
    /// exists and is not a regular file (renaming over a device such as `/dev/null`, a pipe
    /// or a directory would replace it), if it exists and `replace` is not set, or if it is
    /// a symbolic link to nothing (renaming would replace the link). Call it before any
    /// work whose result is to go there.
    pub fn check(dest: &Path, replace: bool) -> Result<()> {
        // A directory that is not there: its error names the cause as the system does.
        std::fs::metadata(dir_of(dest))
            .with_context(|| format!("cannot create {}", dest.display()))?;
        if let Ok(meta) = std::fs::metadata(dest) {
            if !meta.is_file() {
                bail!(
                    "{} is not a regular file (a device, pipe or directory); name a regular file, or for the bank leave out -o and redirect stdout",
                    dest.display()
                );
            }
            if !replace {
                bail!(
                    "{} already exists (use --force to replace it)",
                    dest.display()
                );
            }
        } else if let Ok(target) = std::fs::read_link(dest) {
            bail!(
                "{} is a symbolic link to {}, which is not there; name a file",
                dest.display(),
                target.display()
            );
        }
        Ok(())
    }

    /// Starts writing `dest`, after [`AtomicFile::check`]. A `dest` that is a symbolic link
    /// to a file is published over that file, and the link stays: renamed over the link, a
    /// bank kept elsewhere (`bank.csv -> /data/bank.csv`) would be left behind unchanged.
    pub fn create(dest: &Path, replace: bool) -> Result<Self> {
        Self::check(dest, replace)?;
        let dest = &followed(dest);
        let dir = dir_of(dest);
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned());
        let prefix = format!(".{}.", name.unwrap_or_default());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // Created as an ordinary file would be (0666 less the umask), not private.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temp = builder
            .tempfile_in(dir)
            .map_err(os_cause)
            .with_context(|| format!("cannot create {}", dest.display()))?;
        Ok(AtomicFile {
            temp: BufWriter::with_capacity(BUFFER_BYTES, temp),
            dest: dest.to_owned(),
            replace,
            over: None,
        })
    }

    /// Publishes only over the file at `dest` as `read` stamps it: a file that another
    /// process wrote or replaced since it was read is not replaced, so what that process
    /// put there is not lost.
    pub fn over(self, read: Stamp) -> Self {
        AtomicFile {
            over: Some(read),
            ..self
        }
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(self) -> Result<()> {
        let dest = self.dest;
        let temp = self
            .temp
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", dest.display()))?;
        temp.as_file()
            .sync_all()
            .with_context(|| format!("cannot write {}", dest.display()))?;
        if self
            .over
            .is_some_and(|read| Stamp::of(&dest).ok() != Some(read))
        {
            bail!(
                "{} changed while this run had it open (another run wrote it?); this run's work was not written, and the file keeps the other's",
                dest.display()
            );
        }
        let persisted = if self.replace {
            temp.persist(&dest).map(drop)
        } else {
            temp.persist_noclobber(&dest).map(drop)
        };
        persisted.map_err(|e| e.error).with_context(|| {
            format!(
                "cannot move the finished file into place at {}",
                dest.display()
            )
        })
    }

    /// Writes `bytes` to `dest` atomically.
    pub fn write_all(dest: &Path, replace: bool, bytes: &[u8]) -> Result<()> {
        let mut file = AtomicFile::create(dest, replace)?;
        file.write_all(bytes)
            .with_context(|| format!("cannot write {}", dest.display()))?;
        file.commit()
    }
}

/// `err` without the path of the temporary file that tempfile adds to its errors, a name
/// that means nothing to the user: the kind of error alone, where it has one.
fn os_cause(err: io::Error) -> io::Error {
    use io::ErrorKind::{
        NotADirectory, NotFound, PermissionDenied, QuotaExceeded, ReadOnlyFilesystem, StorageFull,
    };
    match err.kind() {
        kind @ (NotFound | PermissionDenied | ReadOnlyFilesystem | StorageFull | QuotaExceeded
        | NotADirectory) => io::Error::from(kind),
        _ => err,
    }
}

/// Stdout for a command's data, whose write errors say where they happened: "cannot write to
/// stdout: No space left on device (os error 28)". Each keeps its kind, so a closed pipe
/// still ends the command quietly.
#[derive(Debug)]
pub struct Stdout(io::StdoutLock<'static>);

/// Stdout, locked, its errors named ([`Stdout`]).
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

/// `err`, saying that it came from writing to stdout.
fn on_stdout(err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("cannot write to stdout: {err}"))
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(on_stdout)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(on_stdout)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn appears_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("bank.csv");
        let mut file = AtomicFile::create(&dest, false).unwrap();
        file.write_all(b"a,b\n").unwrap();
        assert!(!dest.exists());
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "a,b\n");
        // Existing files are refused unless replaced on purpose.
        assert!(AtomicFile::create(&dest, false).is_err());
        AtomicFile::write_all(&dest, true, b"c\n").unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "c\n");
    }

    #[test]
    fn replaces_only_the_file_it_read() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("bank.csv");
        AtomicFile::write_all(&dest, false, b"first\n").unwrap();
        let read = Stamp::of(&dest).unwrap();
        assert_eq!(Stamp::of(&dest).unwrap(), read);
        // Unchanged since it was read: replaced.
        let mut file = AtomicFile::create(&dest, true).unwrap().over(read);
        file.write_all(b"second\n").unwrap();
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "second\n");
        // Another run publishes over it meanwhile (a rename: a new file under the name), or
        // writes it in place: refused, and the other run's file stays.
        let read = Stamp::of(&dest).unwrap();
        let mut file = AtomicFile::create(&dest, true).unwrap().over(read);
        AtomicFile::write_all(&dest, true, b"other\n").unwrap();
        file.write_all(b"mine\n").unwrap();
        let err = file.commit().unwrap_err().to_string();
        assert!(err.contains("changed while this run had it open"), "{err}");
        assert_eq!(fs::read_to_string(&dest).unwrap(), "other\n");
        let read = Stamp::of(&dest).unwrap();
        let file = AtomicFile::create(&dest, true).unwrap().over(read);
        fs::OpenOptions::new()
            .append(true)
            .open(&dest)
            .unwrap()
            .write_all(b"more\n")
            .unwrap();
        assert!(file.commit().is_err());
        assert_eq!(fs::read_to_string(&dest).unwrap(), "other\nmore\n");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    #[cfg(unix)]
    fn a_link_is_followed_to_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let (real, link) = (dir.path().join("real.csv"), dir.path().join("link.csv"));
        fs::write(&real, "old\n").unwrap();
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        let read = Stamp::of(&link).unwrap();
        let mut file = AtomicFile::create(&link, true).unwrap().over(read);
        file.write_all(b"new\n").unwrap();
        file.commit().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new\n");
        // A link to nothing is refused up front, and stays.
        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink("gone/x.csv", &dangling).unwrap();
        let err = AtomicFile::create(&dangling, true).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "dangling.csv is a symbolic link to gone/x.csv, which is not there; name a file"
            ),
            "{err}"
        );
        assert!(fs::symlink_metadata(&dangling).is_ok());
    }

    #[test]
    #[cfg(unix)]
    fn only_regular_files_are_replaced() {
        let dir = tempfile::tempdir().unwrap();
        // A socket and a directory stand for devices, pipes and the like.
        let socket = dir.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        for dest in [socket.as_path(), dir.path()] {
            let err = AtomicFile::create(dest, true).unwrap_err().to_string();
            assert!(err.contains("is not a regular file"), "{err}");
        }
        assert!(!fs::metadata(&socket).unwrap().is_file());
        let null = Path::new("/dev/null");
        if null.exists() {
            assert!(AtomicFile::create(null, true).is_err());
        }
    }

    #[test]
    fn places_are_compared_however_they_are_spelt() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        let bank = dir.path().join("bank.csv");
        assert!(same_place(&bank, &sub.join("../bank.csv")));
        assert!(same_place(&bank, &dir.path().join("./bank.csv")));
        assert!(!same_place(&bank, &sub.join("bank.csv")));
        assert!(!same_place(&bank, &dir.path().join("bank.csv.json")));
        assert!(same_place(
            Path::new("/nonexistent/a"),
            Path::new("/nonexistent/a")
        ));
        assert!(!same_place(
            Path::new("/nonexistent/a"),
            Path::new("/nonexistent/b")
        ));
        // A link to the bank is the bank, as the bank is written through it.
        #[cfg(unix)]
        {
            fs::write(&bank, "").unwrap();
            let link = sub.join("link.csv");
            std::os::unix::fs::symlink(&bank, &link).unwrap();
            assert!(same_place(&link, &bank));
            assert!(!same_place(&link, &sub.join("bank.csv")));
        }
    }

    #[test]
    fn an_abandoned_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("bank.csv");
        let mut file = AtomicFile::create(&dest, false).unwrap();
        file.write_all(b"partial").unwrap();
        drop(file);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
