package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static org.assertj.core.api.Assertions.tuple;

import io.ferry.config.DirectoryConfig;
import io.ferry.store.Shard;
import io.ferry.store.StoreObject;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A directory's shards: subtrees walked on their own and the directories above them listed flat, each file once. */
class FileListerTest {
  @TempDir Path root;

  private void tree(String... files) throws Exception {
    for (String f : files) {
      Path p = root.resolve(f);
      Files.createDirectories(p.getParent());
      Files.writeString(p, f);
    }
  }

  private List<String> listAll(FileLister lister, List<Shard> shards) throws Exception {
    List<String> keys = new ArrayList<>();
    for (Shard s : shards) lister.list(s, o -> keys.add(o.relativeKey()));
    return keys;
  }

  @Test
  void everyFileIsInExactlyOneShardAtEveryTarget() throws Exception {
    tree("top.txt", "a/1", "a/2", "a/x/3", "a/x/y/4", "a/x/y/z/w/5", "b/6", "c/d/7", "c/d/e/8", "empty-sibling/f/9");
    Files.createDirectories(root.resolve("empty"));
    FileLister lister = new FileLister(root);
    List<String> all = List.of("top.txt", "a/1", "a/2", "a/x/3", "a/x/y/4", "a/x/y/z/w/5", "b/6", "c/d/7", "c/d/e/8", "empty-sibling/f/9");
    for (int target : List.of(1, 2, 3, 5, 8, 100)) {
      List<Shard> shards = lister.shards(List.of(), target);
      assertThat(listAll(lister, shards)).as("target %d: %s", target, shards).containsExactlyInAnyOrderElementsOf(all);
    }
    assertThat(lister.shards(List.of(), 100)).contains(new Shard("", "", "", false), new Shard("a/x/y/z/", "", "", true));
  }

  @Test
  void prefixesAreSubdirectoriesAndAMissingOneListsNothing() throws Exception {
    tree("2018/a", "2018/sub/b", "2018x/c", "2019/d");
    FileLister lister = new FileLister(root);
    assertThat(listAll(lister, lister.shards(List.of("2018/", "gone/"), 4))).containsExactlyInAnyOrder("2018/a", "2018/sub/b");
  }

  /** A name that is not UTF-8 is named by its bytes, and another job's marker file is no object of a source's. */
  @Test
  void aNameThatIsNotUtf8IsNamedByItsBytesAndMarkersAreNoObjects() throws Exception {
    tree("plain.txt", "sub/.ferry-another-job.marker");
    Process p = new ProcessBuilder("sh", "-c", "printf x > \"$(printf 'sub/caf\\351 \\\\ .txt')\"").directory(root.toFile()).start();
    assertThat(p.waitFor()).isZero();
    FileLister lister = new FileLister(root, DirectoryConfig.Symlinks.REPORT);
    List<StoreObject> listed = new ArrayList<>();
    for (Shard s : lister.shards(List.of(), 4)) lister.list(s, listed::add);
    assertThat(listed).extracting(StoreObject::relativeKey, StoreObject::isUndecodable)
        .containsExactlyInAnyOrder(tuple("plain.txt", false), tuple("sub/caf\\xe9 \\\\ .txt", true));
  }

  /**
   * A destination named through a link (a mount point often is one) lists the files where the link leads: the run
   * skips what it holds unchanged and the cut-over finds what it holds (found by the invariant suite's soak).
   */
  @Test
  void aDestinationNamedThroughALinkListsWhereItLeads() throws Exception {
    tree("a.txt", "sub/b.txt");
    Path link = Files.createSymbolicLink(root.resolveSibling(root.getFileName() + "-link"), root);
    for (FileLister lister : List.of(new FileLister(link), FileLister.destination(link, true, FileLister.Folders.ALL))) {
      List<String> keys = new ArrayList<>();
      for (Shard s : lister.shards(List.of(), 4)) lister.list(s, o -> keys.add(o.relativeKey()));
      assertThat(keys).contains("a.txt", "sub/b.txt");
    }
  }

  @Test
  void aRootThatIsNoDirectoryFails() {
    FileLister lister = new FileLister(root.resolve("missing"));
    assertThatThrownBy(() -> lister.shards(List.of(), 4)).isInstanceOf(NotDirectoryException.class);
  }

  /** Links: a source reports them (or follows those to files), a destination's listing leaves them out; none is walked into. */
  @Test
  void symbolicLinksAreReportedFollowedToFilesOrLeftOut() throws Exception {
    tree("a.txt", "sub/b.txt");
    Files.createSymbolicLink(root.resolve("to-file"), Path.of("a.txt"));
    Files.createSymbolicLink(root.resolve("to-dir"), Path.of("sub"));
    Files.createSymbolicLink(root.resolve("dangling"), Path.of("nowhere"));
    Files.createSymbolicLink(root.resolve("sub/loop"), Path.of(".."));
    for (int target : List.of(1, 4, 100)) {
      FileLister report = new FileLister(root, DirectoryConfig.Symlinks.REPORT);
      List<StoreObject> reported = new ArrayList<>();
      for (Shard s : report.shards(List.of(), target)) report.list(s, reported::add);
      assertThat(reported).as("target " + target).extracting(StoreObject::relativeKey, StoreObject::linkTarget)
          .containsExactlyInAnyOrder(tuple("a.txt", ""), tuple("sub/b.txt", ""), tuple("to-file", "a.txt"), tuple("to-dir", "sub"),
              tuple("dangling", "nowhere"), tuple("sub/loop", ".."));

      FileLister follow = new FileLister(root, DirectoryConfig.Symlinks.FOLLOW);
      List<StoreObject> followed = new ArrayList<>();
      for (Shard s : follow.shards(List.of(), target)) follow.list(s, followed::add);
      StoreObject file = followed.stream().filter(o -> o.relativeKey().equals("to-file")).findFirst().orElseThrow();
      assertThat(file.isLink()).isFalse();
      assertThat(file.size()).isEqualTo("a.txt".length());
      assertThat(file.version()).isEqualTo(FileLister.inode(Files.readAttributes(root.resolve("a.txt"),
          java.nio.file.attribute.BasicFileAttributes.class)));
      assertThat(followed).filteredOn(StoreObject::isLink).extracting(StoreObject::relativeKey)
          .containsExactlyInAnyOrder("to-dir", "dangling", "sub/loop");

      assertThat(listAll(new FileLister(root), new FileLister(root).shards(List.of(), target)))
          .containsExactlyInAnyOrder("a.txt", "sub/b.txt");
    }
    assertThat(new FileLister(root, DirectoryConfig.Symlinks.REPORT).find("to-dir").isLink()).isTrue();
    assertThat(new FileLister(root, DirectoryConfig.Symlinks.FOLLOW).find("to-file").isLink()).isFalse();
    assertThat(new FileLister(root).find("to-file")).isNull();
  }

  /** Links copied: each one an object whose bytes are its target, at its path, or at name.rclonelink into a bucket. */
  @Test
  void linksCopiedAreObjectsHoldingTheirTargetsUnderTheirNamesOrRclonesNames() throws Exception {
    tree("a.txt", "sub/b.txt");
    Files.createSymbolicLink(root.resolve("to-file"), Path.of("a.txt"));
    Files.createSymbolicLink(root.resolve("sub/to-dir"), Path.of("../sub"));
    Files.createSymbolicLink(root.resolve("dangling"), Path.of("nowhere/ü"));
    for (DirectoryConfig.Symlinks how : List.of(DirectoryConfig.Symlinks.COPY, DirectoryConfig.Symlinks.COPY_AS_FILES)) {
      String suffix = how == DirectoryConfig.Symlinks.COPY ? "" : ".rclonelink";
      FileLister lister = new FileLister(root, how);
      List<StoreObject> listed = new ArrayList<>();
      for (Shard s : lister.shards(List.of(), 4)) lister.list(s, listed::add);
      assertThat(listed).as(how.name()).extracting(StoreObject::key, StoreObject::relativeKey, StoreObject::linkTarget, StoreObject::size)
          .containsExactlyInAnyOrder(tuple("a.txt", "a.txt", "", 5L), tuple("sub/b.txt", "sub/b.txt", "", 9L),
              tuple("to-file", "to-file" + suffix, "a.txt", 5L), tuple("sub/to-dir", "sub/to-dir" + suffix, "../sub", 6L),
              tuple("dangling", "dangling" + suffix, "nowhere/ü", 10L));
      assertThat(listed).filteredOn(o -> !o.linkTarget().isEmpty()).allMatch(o -> o.isSymlink() && !o.isLink());
      StoreObject found = lister.find("to-file" + suffix);
      assertThat(found.relativeKey()).isEqualTo("to-file" + suffix);
      assertThat(found.linkTarget()).isEqualTo("a.txt");
      assertThat(lister.find("a.txt").isSymlink()).isFalse();
    }
    // a file whose own name ends so is that file, and a link's plain name is no key of a job that keeps it as name.rclonelink
    Files.writeString(root.resolve("real.rclonelink"), "data");
    FileLister asFiles = new FileLister(root, DirectoryConfig.Symlinks.COPY_AS_FILES);
    assertThat(asFiles.find("real.rclonelink").isSymlink()).isFalse();
    assertThat(asFiles.find("to-file")).isNull();
  }

  /** Folders: a source's empty ones at every depth and shard count, a destination's all; each once, as 'path/'. */
  @Test
  void emptyFoldersAreObjectsOfASourceAndEveryFolderOneOfADestination() throws Exception {
    tree("a.txt", "full/b.txt", "full/deep/c.txt");
    for (String dir : List.of("empty", "full/hollow", "full/deep/er/est", "nested/only")) Files.createDirectories(root.resolve(dir));
    for (int target : List.of(1, 3, 100)) {
      FileLister source = new FileLister(root, DirectoryConfig.Symlinks.REPORT, FileLister.Folders.EMPTY);
      assertThat(listAll(source, source.shards(List.of(), target))).as("target " + target).containsExactlyInAnyOrder("a.txt",
          "full/b.txt", "full/deep/c.txt", "empty/", "full/hollow/", "full/deep/er/est/", "nested/only/");
      FileLister destination = FileLister.destination(root, false, FileLister.Folders.ALL);
      assertThat(listAll(destination, destination.shards(List.of(), target))).as("target " + target).containsExactlyInAnyOrder(
          "a.txt", "full/b.txt", "full/deep/c.txt", "empty/", "full/", "full/hollow/", "full/deep/", "full/deep/er/",
          "full/deep/er/est/", "nested/", "nested/only/");
    }
    FileLister source = new FileLister(root, DirectoryConfig.Symlinks.REPORT, FileLister.Folders.EMPTY);
    StoreObject empty = source.find("empty/");
    assertThat(empty.isFolder()).isTrue();
    assertThat(empty.lastModifiedMillis()).isEqualTo(Files.getLastModifiedTime(root.resolve("empty")).toMillis());
    assertThat(source.find("full/")).as("not empty").isNull();
    assertThat(FileLister.destination(root, false, FileLister.Folders.ALL).find("full/").isFolder()).isTrue();
    assertThat(listAll(new FileLister(root), new FileLister(root).shards(List.of(), 4))).as("without folders")
        .containsExactlyInAnyOrder("a.txt", "full/b.txt", "full/deep/c.txt");
  }

  /** A source directory named through a link (a mount point often is one) lists what is under it. */
  @Test
  void aSourceNamedThroughASymbolicLinkListsItsFiles() throws Exception {
    tree("real/a.txt", "real/sub/b.txt");
    Path named = Files.createSymbolicLink(root.resolve("named"), root.resolve("real"));
    FileLister lister = new FileLister(named, DirectoryConfig.Symlinks.REPORT);
    for (int target : List.of(1, 4)) {
      assertThat(listAll(lister, lister.shards(List.of(), target))).containsExactlyInAnyOrder("a.txt", "sub/b.txt");
    }
  }
}
