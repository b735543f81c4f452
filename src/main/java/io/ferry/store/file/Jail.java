package io.ferry.store.file;

import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.Upload;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A destination directory's root, and the rule every path under it keeps: a key resolves only below the root, and
 * every folder a write, rename or deletion goes through is checked to be a real folder (never a link), from the root
 * down, once per instance.
 */
final class Jail {
  private final Path root;
  private final String tag;
  /** Folders under the root already found to be real folders, by this instance (one task's). */
  private final Set<Path> checked = ConcurrentHashMap.newKeySet();

  /** @param tag the job's, in its temp files' names */
  Jail(Path root, String tag) {
    this.root = root;
    this.tag = tag;
  }

  Path root() {
    return root;
  }

  String tag() {
    return tag;
  }

  /** The object's path; a key that has none is a fatal failure of its own (triage sets such keys aside first). */
  Path finalPath(StoreObject object) throws StoreFailure {
    return resolve(root, pathKey(object));
  }

  /** The path an object's key names: a folder's without its '/'. */
  static String pathKey(StoreObject object) {
    String key = object.relativeKey();
    return object.isFolder() ? key.substring(0, key.length() - 1) : key;
  }

  static Path resolve(Path under, String relativeKey) throws StoreFailure {
    try {
      return KeyPaths.resolve(under, relativeKey);
    } catch (UnsafeKeyException e) {
      throw new StoreFailure(StoreFailure.Kind.FATAL, "unsafe key: " + e.getMessage(), e);
    }
  }

  /** Where an upload's bytes wait: its opening's temp file (its id), or, for an object written whole, the object's. */
  Path tempPath(Upload upload) throws StoreFailure {
    Path target = finalPath(upload.object());
    return upload.inParts() ? target.resolveSibling(upload.id())
        : KeyPaths.tempPath(target, tag, KeyPaths.keyNonce(upload.object().relativeKey()));
  }

  /**
   * The folder {@code path} is in, under {@code base}: every folder from {@code base} down must be a real folder (a
   * symbolic link is refused, wherever it points), and is created when missing if {@code create}.
   */
  Path folder(Path base, Path path, boolean create) throws IOException {
    Path parent = path.getParent();
    if (parent.equals(base) || checked.contains(parent)) return parent;
    Path dir = base;
    for (Path segment : base.relativize(parent)) {
      dir = dir.resolve(segment.toString());
      if (checked.contains(dir)) continue;
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        if (!create) throw e;
        try {
          Files.createDirectory(dir);
        } catch (FileAlreadyExistsException raced) {
          // another stream created it first
        }
        a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      }
      if (a.isSymbolicLink()) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, dir + " is a symbolic link (to " + Files.readSymbolicLink(dir)
            + "): Ferry writes nothing through links in its destination, so this object was not copied");
      }
      if (!a.isDirectory()) throw new StoreFailure(StoreFailure.Kind.FATAL, dir + " is a file where the key needs a folder");
      checked.add(dir);
    }
    return parent;
  }

  /**
   * Whether {@code path}'s folder is there, through real folders only: nothing of this job's can be staged anywhere
   * else (a folder that is a link was never written through), so there is nothing to remove otherwise.
   */
  boolean folderExists(Path base, Path path) throws IOException {
    try {
      folder(base, path, false);
      return true;
    } catch (NoSuchFileException | NotDirectoryException e) {
      return false;
    } catch (StoreFailure notAFolder) {
      return false;
    }
  }


  /**
   * A probe file of this job created in the root under a lower-case name and looked for under the upper-case one
   * (the root's behaviour; a folder of its own that folds case is not found).
   */
  boolean foldsCase() throws IOException {
    return Files.isDirectory(root) && foldsCaseIn(root);
  }

  /**
   * The folder the two keys first differ in (or, where it is not made yet, its deepest folder there is, whose rule a new
   * folder inherits) folds case. A folder reached through a link is never written into, so never one file.
   */
  boolean oneFile(String a, String b) throws IOException {
    String[] x = a.split("/", -1), y = b.split("/", -1);
    if (x.length != y.length) return false;
    int i = 0;
    while (i < x.length && x[i].equals(y[i])) i++;
    if (i == x.length) return true;
    Path folder = root;
    for (int k = 0; k < i; k++) folder = folder.resolve(x[k]);
    while (!folder.equals(root) && !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) folder = folder.getParent();
    try {
      folder(root, folder.resolve("-"), false);
    } catch (StoreFailure | NoSuchFileException | NotDirectoryException notAFolder) {
      return false;
    }
    Path known = folder;
    Boolean folds = foldingFolders.get(known);
    if (folds == null) {
      folds = foldsCaseIn(known);
      foldingFolders.put(known, folds);
    }
    return folds;
  }

  /** Folders probed for case folding, by this instance. */
  private final Map<Path, Boolean> foldingFolders = new ConcurrentHashMap<>();

  /** A probe file of this job created in {@code folder} under a lower-case name and looked for under the upper-case one. */
  private boolean foldsCaseIn(Path folder) throws IOException {
    Path probe = folder.resolve(".ferry-" + tag + "-" + KeyPaths.nonce() + ".case.marker"); // probes of other tasks apart
    Files.createFile(probe);
    try {
      String upper = probe.getFileName().toString().toUpperCase(Locale.ROOT);
      return Files.exists(folder.resolve(upper), LinkOption.NOFOLLOW_LINKS);
    } finally {
      Files.deleteIfExists(probe);
    }
  }
}
