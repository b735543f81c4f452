package io.ferry.store.file;

import io.ferry.store.ListCounts;
import io.ferry.store.Lister;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Lists the regular files under a directory, in path order, as objects keyed by their relative path with '/'
 * separators. Symbolic links are not followed, so a listing never leaves the directory.
 */
final class FileLister implements Lister {
  private final Path root;

  FileLister(Path root) {
    this.root = root;
  }

  @Override
  public ListCounts list(Consumer<StoreObject> consumer) throws IOException {
    if (!Files.isDirectory(root)) throw new NotDirectoryException(root + " is not a directory");
    long listed = 0;
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted()::iterator) {
        BasicFileAttributes attributes = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) continue;
        listed++;
        String key = root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
        consumer.accept(new StoreObject(key, key, attributes.size(), "", attributes.lastModifiedTime().toMillis()));
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new ListCounts(listed, listed, 0, 0, 0);
  }
}
