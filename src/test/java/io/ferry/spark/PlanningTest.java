package io.ferry.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.CopyConfig;
import io.ferry.config.DestinationConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.SourceConfig;
import io.ferry.plan.Decision;
import io.ferry.store.KeyOrder;
import io.ferry.store.StoreObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/** The join of the two listings, key by key, without Spark: what reduceByKey merges, and what the triage makes of it. */
class PlanningTest {
  @TempDir Path root;

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "", 1_000);
  }

  private CopySettings settings() {
    return new CopySettings(SourceConfig.all(new DirectoryConfig(root.resolve("source").toString())),
        new DestinationConfig(new DirectoryConfig(root.resolve("destination").toString())), "job", "run",
        new CopyConfig(2, 0, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), true, 4096));
  }

  @Test
  void keysDifferingOnlyInCaseJoinAsOneWhereTheDestinationFoldsCase() {
    assertThat(KeyOrder.joinKey("Dir/Photo.JPG", true)).isEqualTo(KeyOrder.joinKey("dir/photo.jpg", true)).isEqualTo("dir/photo.jpg");
    assertThat(KeyOrder.joinKey("Dir/Photo.JPG", false)).isEqualTo("Dir/Photo.JPG");
    assertThat(KeyOrder.joinKey("STRASSE", true)).isEqualTo(KeyOrder.joinKey("straße", true)); // full folding: ß is SS
  }

  @Test
  void sourcesThatFoldToOneKeyMergeAlikeInAnyOrder() {
    List<Planning.Keyed> sides = List.of(new Planning.Keyed(object("A.txt", 1), null, false), new Planning.Keyed(object("a.txt", 2), null, false),
        new Planning.Keyed(null, object("a.TXT", 3), false), new Planning.Keyed(null, null, true), new Planning.Keyed(object("a.Txt", 4), null, false));
    Planning.Keyed expected = sides.stream().reduce(Planning.Keyed::merge).orElseThrow();
    Random random = new Random(3);
    for (int trial = 0; trial < 50; trial++) {
      List<Planning.Keyed> shuffled = new ArrayList<>(sides);
      Collections.shuffle(shuffled, random);
      assertThat(shuffled.stream().reduce(Planning.Keyed::merge).orElseThrow()).isEqualTo(expected);
    }
    assertThat(expected.source().key()).isEqualTo("A.txt");
    assertThat(expected.colliding()).extracting(StoreObject::key).containsExactly("a.Txt", "a.txt");
    assertThat(expected.existing().key()).isEqualTo("a.TXT");
    assertThat(expected.folder()).isTrue();
  }

  @Test
  void everyKeyOfACollisionIsRejectedAndNoneCopiedOrDeleted() throws Exception {
    Planning.Keyed collision = new Planning.Keyed(object("A.txt", 1), null, false).merge(new Planning.Keyed(object("a.txt", 2), null, false))
        .merge(new Planning.Keyed(null, object("a.txt", 2), false));
    Planning.Keyed alone = new Planning.Keyed(object("b.txt", 5), null, false);
    List<Decision> decisions = new ArrayList<>();
    new Planning.TriageFunction(settings(), true, true).call(List.of(new Tuple2<>("a.txt", collision), new Tuple2<>("b.txt", alone)).iterator())
        .forEachRemaining(decisions::add);
    assertThat(decisions).extracting(d -> d.object().key() + " " + d.kind()).containsExactly("A.txt REJECTED", "a.txt REJECTED", "b.txt COPY");
    assertThat(decisions.get(0).reason()).contains("differs from 'a.txt' only in case").contains("folds case");
  }
}
