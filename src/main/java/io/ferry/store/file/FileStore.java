package io.ferry.store.file;

import io.ferry.config.DirectoryConfig;
import io.ferry.store.Destination;
import io.ferry.store.Lister;
import io.ferry.store.RangeReader;
import io.ferry.store.Store;
import java.nio.file.Path;
import java.util.Optional;

/** A directory on a local disk, an NFS mount or a block volume. */
public final class FileStore implements Store {
  private final Path root;
  private final DirectoryConfig.Symlinks symlinks;
  private final boolean folders;
  private final String tag;
  private final int bufferSize;
  private final FileIo io;

  /**
   * @param tag names the temp files written here (beside their final names, hidden): the job's name, so that a rerun
   *     of the job finds those an earlier run left
   * @param bufferSize bytes a write reads from its body at a time
   */
  public FileStore(DirectoryConfig config, String tag, int bufferSize) {
    this.root = Path.of(config.path());
    this.symlinks = config.symlinks();
    this.folders = config.folders();
    this.tag = tag;
    this.bufferSize = bufferSize;
    this.io = FileIo.of(config.writes(), root);
  }

  @Override
  public Lister lister() {
    return new FileLister(root, symlinks, folders ? FileLister.Folders.EMPTY : FileLister.Folders.NONE);
  }

  @Override
  public RangeReader reader() {
    return new FileRangeReader(root, symlinks == DirectoryConfig.Symlinks.FOLLOW);
  }

  @Override
  public Destination destination() {
    return new FileDestination(root, tag, bufferSize, symlinks == DirectoryConfig.Symlinks.COPY, folders, io);
  }

  /**
   * Why the filesystem of the directory refuses direct I/O, or empty where it takes it (a probe file of job {@code tag}'s
   * written and removed).
   */
  public static Optional<String> directIoRefusal(DirectoryConfig config, String tag) {
    return FileIo.refusal(Path.of(config.path()), tag);
  }
}
