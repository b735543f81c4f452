package io.ferry.store.file;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Lists the regular files under a directory as objects keyed by their relative path with '/' separators. Shards are
 * directories: the top levels of the tree are walked on the driver until there are enough subtrees, each then walked
 * on an executor; the directories above them are listed on their own, without descending. Symbolic links are not
 * followed, so a listing never leaves the directory.
 */
final class FileLister implements Lister {
  /** Directory levels walked on the driver at most. */
  private static final int LEVELS = 4;
  private final Path root;

  FileLister(Path root) {
    this.root = root;
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
        }
      }
      frontier = next;
    }
    for (String dir : frontier) shards.add(new Shard(dir, "", "", true));
    return shards;
  }

  @Override
  public ListCounts list(Shard shard, Consumer<StoreObject> consumer) throws IOException {
    Path dir = path(shard.prefix());
    long listed = 0;
    try (Stream<Path> paths = shard.recursive() ? Files.walk(dir) : Files.list(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted()::iterator) {
        BasicFileAttributes attributes = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) continue;
        listed++;
        String key = root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
        consumer.accept(new StoreObject(key, key, attributes.size(), "", attributes.lastModifiedTime().toMillis()));
      }
    } catch (NoSuchFileException e) {
      if (!shard.prefix().isEmpty()) return ListCounts.NONE; // removed since the shards were found
      throw e;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new ListCounts(listed, listed, 0, 0, 0);
  }

  private Path path(String relative) {
    return relative.isEmpty() ? root : root.resolve(relative);
  }
}
