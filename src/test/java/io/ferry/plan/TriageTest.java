package io.ferry.plan;

import io.ferry.store.Retrier;
import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.PlanConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.config.Selection;
import io.ferry.store.Destination;
import io.ferry.store.ObjectFilter;
import io.ferry.store.StoreObject;
import io.ferry.store.file.FileStore;
import io.ferry.store.s3.S3Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The triage between listing and plan (no S3 server holds "a" beside "a/b", so this is where it is tested). */
class TriageTest {
  private static final PlanConfig PLAN = new PlanConfig(100, 100, 100);

  private static StoreObject object(String key) {
    return new StoreObject("prefix/" + key, key, 3, "e", 0);
  }

  private static Triage.Result triage(List<StoreObject> listed, Destination destination) {
    return Triage.plan(listed, List.of(), PLAN, destination.capabilities(), false, destination, new ObjectFilter(Selection.ALL), true);
  }

  @Test
  void unsafeKeysAndFilePrefixConflictsAreRejectedWithReasonsTheRestIsPlanned() {
    List<StoreObject> listed = List.of(object("a"), object("a/b"), object("a/c/d"), object("a/c"), object("../escape"),
        object("x//y"), object("ok.txt"));
    Triage.Result result = triage(listed, new FileStore(new DirectoryConfig("/dest"), "run", 1 << 20).destination());
    Map<String, String> rejected = new TreeMap<>();
    for (Triage.Rejected r : result.rejected()) rejected.put(r.object().relativeKey(), r.reason());
    assertThat(rejected.keySet()).containsExactly("../escape", "a", "a/c", "x//y");
    assertThat(rejected.get("a")).startsWith("the key is also a prefix of other keys ('a/...')");
    assertThat(rejected.get("../escape")).isEqualTo("unsafe key, not copied: the key has a '..' segment (it could escape the destination directory)");
    List<String> planned = result.plan().tasks().stream().map(CopyTask::ranges).flatMap(List::stream)
        .map(r -> r.object().relativeKey()).toList();
    assertThat(planned).containsExactly("a/b", "a/c/d", "ok.txt");
  }

  @Test
  void aBucketHoldsAnyKeyUpToOneThousandTwentyFourBytesWithThePrefix() {
    String fits = "k".repeat(1024 - "dst/".length());
    List<StoreObject> listed = List.of(object("a"), object("a/b"), object("../odd"), object(fits), object(fits + "x"));
    BucketConfig bucket = new BucketConfig(S3EndpointConfig.withKeys("http://127.0.0.1:9", "us-east-1", "id", "secret"), "b", "dst/");
    Triage.Result result = triage(listed, new S3Store(bucket, 4, Duration.ofSeconds(5), Retrier.once()).destination());
    assertThat(result.rejected()).singleElement().satisfies(r -> {
      assertThat(r.object().relativeKey()).isEqualTo(fits + "x");
      assertThat(r.reason()).startsWith("the destination key would be 1025 bytes long");
    });
    assertThat(result.plan().objects()).isEqualTo(4);
  }
}
