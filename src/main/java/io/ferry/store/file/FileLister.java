package io.ferry.store.file;

import io.ferry.config.DirectoryConfig.Symlinks;
import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lists the regular files under a directory as objects keyed by their relative path with '/' separators. Shards are
 * directories: the top levels of the tree are walked on the driver until there are enough subtrees, each then walked
 * on an executor; the directories above them are listed on their own, without descending. Symbolic links are not
 * walked into, so a listing never leaves the directory: a source's link to a file is copied as that file where the
 * job follows links ({@code follow}), and any other link is handed on as a {@link StoreObject#link}, for the plan to
 * report (a destination's links are no objects of the job's). A live directory changes while it is listed: an
 * entry that vanishes between its folder's read and its own is simply not there (the folder's other entries are).
 */
final class FileLister implements Lister {
  /** Directory levels walked on the driver at most. */
  private static final int LEVELS = 4;
  private static final Pattern INODE = Pattern.compile("ino=(\\d+)");
  private final Path root;
  private final boolean follow;
  /** Whether links not followed are handed on (a source reports them); a destination's listing leaves them out. */
  private final boolean report;
  /** Whether every link is an object of the job's, as a {@link StoreObject#symlink} (source.symlinks = copy). */
  private final boolean copy;
  /** What a link's key gets after it ({@code .rclonelink} into a bucket), where links are copied. */
  private final String linkSuffix;
  private final Folders folders;

  /** Which folders are objects of the job's, each as its path with '/' after it (source.empty-directories = copy). */
  enum Folders {
    NONE,
    /** A source's empty ones. */
    EMPTY,
    /** All of a destination's: a folder made for an empty one may hold files since, and is still the job's. */
    ALL
  }

  /** A destination's listing: its regular files only (its links are no objects of the job's, and never followed). */
  FileLister(Path root) {
    this(root, false, false, false, "", Folders.NONE);
  }

  /** A source's listing, or that of a destination whose links are the job's (copy): links as the job treats them. */
  FileLister(Path root, Symlinks symlinks) {
    this(root, symlinks, Folders.NONE);
  }

  /**
   * A destination's listing where its links or folders are the job's ({@code symlinks = copy}, {@code
   * empty-directories = copy}): links listed as links (never followed), folders all.
   */
  static FileLister destination(Path root, boolean links, Folders folders) {
    return new FileLister(root, false, false, links, "", folders);
  }

  FileLister(Path root, Symlinks symlinks, Folders folders) {
    this(root, symlinks == Symlinks.FOLLOW, true,
        symlinks == Symlinks.COPY || symlinks == Symlinks.COPY_AS_FILES,
        symlinks == Symlinks.COPY_AS_FILES ? Symlinks.LINK_SUFFIX : "",
        folders);
  }

  private FileLister(Path root, boolean follow, boolean report, boolean copy, String linkSuffix, Folders folders) {
    this.root = real(root); // a root named through a link (a mount point often is one) is walked where it leads
    this.follow = follow;
    this.report = report;
    this.copy = copy;
    this.linkSuffix = linkSuffix;
    this.folders = folders;
  }

  @Override
  public List<Shard> shards(List<String> prefixes, int target) throws IOException {
    if (!Files.isDirectory(root)) throw new NotDirectoryException(root + " is not a directory");
    List<String> frontier = new ArrayList<>();
    for (String p : prefixes.isEmpty() ? List.of("") : prefixes) if (Files.isDirectory(path(p), LinkOption.NOFOLLOW_LINKS)) frontier.add(p);
    List<Shard> shards = new ArrayList<>();
    for (int level = 0; level < LEVELS && !frontier.isEmpty() && shards.size() + frontier.size() < target; level++) {
      List<String> next = new ArrayList<>();
      for (String dir : frontier) {
        shards.add(new Shard(dir, "", "", false));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path(dir))) {
          for (Path entry : entries) {
            if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) next.add(dir + entry.getFileName() + "/");
          }
        } catch (NoSuchFileException gone) {
          // removed since it was seen: nothing under it to list
        }
      }
      frontier = next;
    }
    for (String dir : frontier) shards.add(new Shard(dir, "", "", true));
    return shards;
  }

  @Override
  public ListCounts list(Shard shard, Consumer<StoreObject> consumer) throws IOException {
    List<Entry> entries = new ArrayList<>();
    try {
      Files.walkFileTree(path(shard.prefix()), Set.of(), shard.recursive() ? Integer.MAX_VALUE : 1, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
          // each folder is the start of one shard or inside one recursive shard: listed there, once
          if (folders != Folders.NONE && !dir.equals(root) && (folders == Folders.ALL || isEmpty(dir))) {
            entries.add(new Entry(dir, attributes));
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          // another run's marker (this directory is a destination of some job's too) is no object of anybody's
          if (report && KeyPaths.isMarkerName(file.getFileName().toString())) return FileVisitResult.CONTINUE;
          BasicFileAttributes seen = attributes.isSymbolicLink() ? followed(file, attributes) : attributes;
          if (seen.isRegularFile() || (report || copy) && seen.isSymbolicLink()) entries.add(new Entry(file, seen));
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE; // vanished since its folder was read
          throw e;
        }
      });
    } catch (NoSuchFileException e) {
      if (!shard.prefix().isEmpty()) return ListCounts.NONE; // the shard's folder was removed since the shards were found
      throw e;
    }
    entries.sort(Comparator.comparing(Entry::path));
    for (Entry e : entries) consumer.accept(object(e.path(), e.attributes()));
    return new ListCounts(entries.size(), entries.size(), 0, 0, 0);
  }

  @Override
  public StoreObject find(String relativeKey) throws IOException {
    StoreObject found = findAt(relativeKey);
    if (found != null && found.relativeKey().equals(relativeKey)) return found;
    if (!linkSuffix.isEmpty() && relativeKey.endsWith(linkSuffix)) { // a link kept as name.rclonelink: the link at name
      StoreObject link = findAt(relativeKey.substring(0, relativeKey.length() - linkSuffix.length()));
      if (link != null && link.isSymlink()) return link;
    }
    return null; // a link found at the plain name is kept under name.rclonelink: no object of this key
  }

  private StoreObject findAt(String relativePath) throws IOException {
    Path file = path(relativePath);
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (relativePath.endsWith("/")) {
        boolean listed = folders == Folders.ALL || folders == Folders.EMPTY && isEmpty(file);
        return attributes.isDirectory() && listed ? object(file, attributes) : null;
      }
      if (attributes.isSymbolicLink()) attributes = followed(file, attributes);
      return attributes.isRegularFile() || (report || copy) && attributes.isSymbolicLink() ? object(file, attributes) : null;
    } catch (NoSuchFileException | NotDirectoryException e) {
      return null;
    }
  }

  private record Entry(Path path, BasicFileAttributes attributes) {}

  private static boolean isEmpty(Path dir) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      return !entries.iterator().hasNext();
    } catch (NoSuchFileException gone) {
      return false;
    }
  }

  /**
   * A directory as the user named it, through any links on its way (a mount point is often one): a listing that started
   * at the link itself would walk nothing under it (a destination's would find nothing to skip or to delete).
   */
  private static Path real(Path root) {
    try {
      return root.toRealPath();
    } catch (IOException e) {
      return root; // missing: shards() says so
    }
  }

  /** A link's target's attributes where the job follows links and it is a file; else the link's own. */
  private BasicFileAttributes followed(Path link, BasicFileAttributes own) {
    if (!follow) return own;
    try {
      BasicFileAttributes target = Files.readAttributes(link, BasicFileAttributes.class);
      return target.isRegularFile() ? target : own;
    } catch (IOException dangling) {
      return own; // a link to nothing, or a loop of links: reported as the link it is
    }
  }

  private StoreObject object(Path file, BasicFileAttributes attributes) {
    String key = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
    if (key.indexOf('\uFFFD') >= 0 && !KeyPaths.decodes(file)) {
      // a name that is not UTF-8 has no key: named by its bytes, for the row that reports it
      return StoreObject.undecodable(KeyPaths.escapedBytes(root, file), attributes.size(), attributes.lastModifiedTime().toMillis());
    }
    if (attributes.isDirectory()) return new StoreObject(key + "/", key + "/", 0, "", attributes.lastModifiedTime().toMillis());
    if (attributes.isSymbolicLink()) {
      String target;
      try {
        target = Files.readSymbolicLink(file).toString();
      } catch (IOException e) {
        target = "?";
      }
      long time = attributes.lastModifiedTime().toMillis();
      // a target this JVM cannot decode whole (not UTF-8) would be made again otherwise: reported, not copied
      boolean whole = target.indexOf('\uFFFD') < 0;
      return copy && whole ? StoreObject.symlink(key, key + linkSuffix, target, time) : StoreObject.link(key, key, target, time);
    }
    return new StoreObject(key, key, attributes.size(), "", attributes.lastModifiedTime().toMillis(), inode(attributes));
  }

  /**
   * The file's inode ("ino=…"; "" where the platform gives none): a file replaced under the same name is another one.
   * Not the device, which differs between the hosts that mount one NFS export (a listing and a read run on different
   * executors).
   */
  static String inode(BasicFileAttributes attributes) {
    Object key = attributes.fileKey(); // "(dev=…,ino=…)" on Unix
    if (key == null) return "";
    Matcher m = INODE.matcher(key.toString());
    return m.find() ? "ino=" + m.group(1) : "";
  }

  private Path path(String relative) {
    return relative.isEmpty() ? root : root.resolve(relative);
  }
}
