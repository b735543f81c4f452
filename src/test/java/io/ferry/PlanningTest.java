package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.PlanConfig;
import io.ferry.copy.ObjectResult;
import io.ferry.plan.CopyTask;
import io.ferry.plan.SourceObject;
import io.ferry.source.S3Lister;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The triage between listing and plan (no S3 server holds "a" beside "a/b", so this is where it is tested). */
class PlanningTest {
  private static SourceObject object(String key) {
    return new SourceObject("prefix/" + key, key, 3, "e", 0);
  }

  @Test
  void unsafeKeysAndFilePrefixConflictsAreRejectedWithReasonsTheRestIsPlanned() {
    List<SourceObject> listed = List.of(object("a"), object("a/b"), object("a/c/d"), object("a/c"), object("../escape"),
        object("x//y"), object("ok.txt"));
    Planning.Result result = Planning.triage(listed, new S3Lister.Counts(7, 7, 0, 0, 1), new PlanConfig(100, 100, 100), false,
        Path.of("/dest"), "", o -> false);
    Map<String, String> rejected = new TreeMap<>();
    for (ObjectResult r : result.rejected()) rejected.put(r.object().relativeKey(), r.error());
    assertThat(rejected.keySet()).containsExactly("../escape", "a", "a/c", "x//y");
    assertThat(rejected.get("a")).startsWith("the key is also a prefix of other keys ('a/...')");
    assertThat(rejected.get("../escape")).isEqualTo("unsafe key, not copied: the key has a '..' segment (it could escape the destination directory)");
    assertThat(result.rejected()).allSatisfy(r -> assertThat(r.status()).isEqualTo(ObjectResult.Status.FAILED));
    List<String> planned = result.plan().tasks().stream().map(CopyTask::ranges).flatMap(List::stream)
        .map(r -> r.object().relativeKey()).toList();
    assertThat(planned).containsExactly("a/b", "a/c/d", "ok.txt");
  }

  @Test
  void aBucketHoldsAnyKeyUpToOneThousandTwentyFourBytesWithThePrefix() {
    String fits = "k".repeat(1024 - "dst/".length());
    List<SourceObject> listed = List.of(object("a"), object("a/b"), object("../odd"), object(fits), object(fits + "x"));
    Planning.Result result = Planning.triage(listed, new S3Lister.Counts(5, 5, 0, 0, 1), new PlanConfig(100, 100, 100), false,
        null, "dst/", o -> false);
    assertThat(result.rejected()).singleElement().satisfies(r -> {
      assertThat(r.object().relativeKey()).isEqualTo(fits + "x");
      assertThat(r.error()).startsWith("the destination key would be 1025 bytes long");
    });
    assertThat(result.plan().objects()).isEqualTo(4);
  }
}
