package io.ferry.source;

import io.ferry.config.SourceConfig;
import io.ferry.plan.SourceObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Lists the regular files under a directory, in path order, as objects keyed by their relative path with '/'
 * separators. Symbolic links are not followed, so a listing never leaves the directory.
 */
public final class FileLister {
  private final SourceConfig source;

  public FileLister(SourceConfig source) {
    this.source = source;
  }

  public S3Lister.Counts list(Consumer<SourceObject> consumer) throws IOException {
    Path root = Path.of(source.path()).toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) throw new java.nio.file.NotDirectoryException(root + " (ferry.source.path) is not a directory");
    List<Glob> include = source.include().stream().map(Glob::compile).toList();
    List<Glob> exclude = source.exclude().stream().map(Glob::compile).toList();
    long listed = 0, selected = 0, filtered = 0;
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted()::iterator) {
        BasicFileAttributes attributes = Files.readAttributes(p, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) continue;
        listed++;
        String key = root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
        if (!Glob.selected(key, include, exclude)) {
          filtered++;
          continue;
        }
        selected++;
        consumer.accept(new SourceObject(key, key, attributes.size(), "", attributes.lastModifiedTime().toMillis()));
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new S3Lister.Counts(listed, selected, 0, filtered, 0);
  }
}
