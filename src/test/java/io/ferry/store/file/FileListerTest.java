package io.ferry.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.store.Shard;
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

  @Test
  void aRootThatIsNoDirectoryFails() {
    FileLister lister = new FileLister(root.resolve("missing"));
    assertThatThrownBy(() -> lister.shards(List.of(), 4)).isInstanceOf(NotDirectoryException.class);
  }
}
