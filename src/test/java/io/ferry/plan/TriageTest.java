package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.ArchivedConfig;
import io.ferry.config.BucketConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.config.Selection;
import io.ferry.store.Destination;
import io.ferry.store.KeyOrder;
import io.ferry.store.listing.ObjectFilter;
import io.ferry.store.retry.Retrier;
import io.ferry.store.StoreObject;
import io.ferry.store.file.FileStore;
import io.ferry.store.s3.S3Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The triage between listing and plan, through the functions Planning runs on the executors: each object's sides, the
 * sides of a key merged (what reduceByKey does), each key decided. No S3 server holds "a" beside "a/b", and no
 * filesystem here folds case, so this is where those are tested.
 */
class TriageTest {
  private static final Destination DIRECTORY = new FileStore(new DirectoryConfig("/dest"), "run", 1 << 20).destination();

  private static StoreObject object(String key) {
    return new StoreObject("prefix/" + key, key, 3, "e", 0);
  }

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "", 1_000);
  }

  /** Every key's decisions, in key order, as the executors make them. */
  private static List<Decision> triage(List<StoreObject> listed, List<StoreObject> existing, Destination destination, boolean folds) {
    return triage(listed, existing, destination, folds, ArchivedConfig.Policy.FAIL);
  }

  private static List<Decision> triage(List<StoreObject> listed, List<StoreObject> existing, Destination destination, boolean folds,
      ArchivedConfig.Policy archived) {
    boolean hierarchical = destination.capabilities().hierarchicalKeys();
    Map<String, Keyed> keys = new TreeMap<>();
    for (StoreObject o : listed) Triage.sides(o, hierarchical, folds).forEach(e -> keys.merge(e.getKey(), e.getValue(), Keyed::merge));
    for (StoreObject o : existing) {
      Map.Entry<String, Keyed> e = Triage.side(o, folds);
      keys.merge(e.getKey(), e.getValue(), Keyed::merge);
    }
    List<Decision> decisions = new ArrayList<>();
    keys.values().forEach(k -> decisions.addAll(Triage.decide(k, hierarchical, destination, new ObjectFilter(Selection.ALL), true,
        archived, Triage.Restamp.NONE)));
    return decisions;
  }

  private static Map<String, String> rejected(List<Decision> decisions) {
    Map<String, String> rejected = new TreeMap<>();
    decisions.stream().filter(d -> d.kind() == Decision.Kind.REJECTED).forEach(d -> rejected.put(d.object().relativeKey(), d.reason()));
    return rejected;
  }

  private static List<String> copied(List<Decision> decisions) {
    return decisions.stream().filter(d -> d.kind() == Decision.Kind.COPY).map(d -> d.object().relativeKey()).toList();
  }

  @Test
  void unsafeKeysAndFilePrefixConflictsAreRejectedWithReasonsTheRestIsPlanned() {
    List<StoreObject> listed = List.of(object("a"), object("a/b"), object("a/c/d"), object("a/c"), object("../escape"),
        object("x//y"), object("ok.txt"));
    List<Decision> decisions = triage(listed, List.of(), DIRECTORY, false);
    Map<String, String> rejected = rejected(decisions);
    assertThat(rejected.keySet()).containsExactly("../escape", "a", "a/c", "x//y");
    assertThat(rejected.get("a")).startsWith("the key is also a prefix of other keys ('a/...')");
    assertThat(rejected.get("../escape"))
        .isEqualTo("unsafe key, not copied: the key has a '..' segment (it could escape the destination directory)");
    assertThat(copied(decisions)).containsExactly("a/b", "a/c/d", "ok.txt");
  }

  @Test
  void aBucketHoldsAnyKeyUpToOneThousandTwentyFourBytesWithThePrefix() {
    String fits = "k".repeat(1024 - "dst/".length());
    List<StoreObject> listed = List.of(object("a"), object("a/b"), object("../odd"), object(fits), object(fits + "x"));
    BucketConfig bucket = new BucketConfig(S3EndpointConfig.withKeys("http://127.0.0.1:9", "us-east-1", "id", "secret"), "b", "dst/");
    List<Decision> decisions = triage(listed, List.of(), new S3Store(bucket, 4, Duration.ofSeconds(5), Retrier.once()).destination(),
        false);
    assertThat(rejected(decisions)).containsOnlyKeys(fits + "x");
    assertThat(rejected(decisions).get(fits + "x")).startsWith("the destination key would be 1025 bytes long");
    assertThat(copied(decisions)).hasSize(4);
  }

  @Test
  void onlyTheDestinationsObjectIsExtraneousAndAnUnchangedOneSkipped() {
    StoreObject kept = object("kept", 5);
    List<Decision> decisions = triage(List.of(kept, object("new", 5)), List.of(kept, object("gone", 5)), DIRECTORY, false);
    assertThat(decisions).extracting(d -> d.object().key() + " " + d.kind()).containsExactly("gone EXTRANEOUS", "kept UNCHANGED",
        "new COPY");
  }

  @Test
  void keysDifferingOnlyInCaseJoinAsOneWhereTheDestinationFoldsCase() {
    assertThat(KeyOrder.joinKey("Dir/Photo.JPG", true)).isEqualTo(KeyOrder.joinKey("dir/photo.jpg", true)).isEqualTo("dir/photo.jpg");
    assertThat(KeyOrder.joinKey("Dir/Photo.JPG", false)).isEqualTo("Dir/Photo.JPG");
    assertThat(KeyOrder.joinKey("STRASSE", true)).isEqualTo(KeyOrder.joinKey("straße", true)); // full folding: ß is SS
  }

  @Test
  void sourcesThatFoldToOneKeyMergeAlikeInAnyOrder() {
    List<Keyed> sides = List.of(Keyed.source(object("A.txt", 1)), Keyed.source(object("a.txt", 2)), Keyed.existing(object("a.TXT", 3)),
        Keyed.folderMark(), Keyed.source(object("a.Txt", 4)));
    Keyed expected = sides.stream().reduce(Keyed::merge).orElseThrow();
    Random random = new Random(3);
    for (int trial = 0; trial < 50; trial++) {
      List<Keyed> shuffled = new ArrayList<>(sides);
      Collections.shuffle(shuffled, random);
      assertThat(shuffled.stream().reduce(Keyed::merge).orElseThrow()).isEqualTo(expected);
    }
    assertThat(expected.source().key()).isEqualTo("A.txt");
    assertThat(expected.colliding()).extracting(StoreObject::key).containsExactly("a.Txt", "a.txt");
    assertThat(expected.existing().key()).isEqualTo("a.TXT");
    assertThat(expected.folder()).isTrue();
  }

  @Test
  void everyKeyOfACollisionIsRejectedAndNoneCopiedOrDeleted() {
    List<Decision> decisions = triage(List.of(object("A.txt", 1), object("a.txt", 2), object("b.txt", 5)), List.of(object("a.txt", 2)),
        DIRECTORY, true);
    assertThat(decisions).extracting(d -> d.object().key() + " " + d.kind()).containsExactly("A.txt REJECTED", "a.txt REJECTED",
        "b.txt COPY");
    assertThat(decisions.get(0).reason()).contains("differs from 'a.txt' only in case").contains("folds case");
    // the same keys on a destination that keeps case: two objects, one of them unchanged
    assertThat(triage(List.of(object("A.txt", 1), object("a.txt", 2)), List.of(object("a.txt", 2)), DIRECTORY, false))
        .extracting(d -> d.object().key() + " " + d.kind()).containsExactly("A.txt COPY", "a.txt UNCHANGED");
  }

  @Test
  void aSymbolicLinkIsNotCopiedButReportedWithItsTargetAndIsNeverExtraneous() {
    StoreObject link = StoreObject.link("photos", "photos", "/mnt/archive/photos", 5);
    List<Decision> decisions = triage(List.of(link), List.of(object("photos", 7)), DIRECTORY, false);
    assertThat(decisions).singleElement().satisfies(d -> {
      assertThat(d.kind()).isEqualTo(Decision.Kind.NOT_COPIED);
      assertThat(d.reason()).contains("'/mnt/archive/photos'");
    });
    assertThat(PlanTotals.of(decisions.get(0)).notCopied()).isEqualTo(1);
  }

  /**
   * An archived object goes as source.archived says, and only when the destination lacks it: one the destination
   * holds unchanged (copied before, or after an earlier restore whose copy expired since) is skipped under every
   * policy, so no restore is ever paid for twice.
   */
  @Test
  void anArchivedObjectGoesAsThePolicySaysUnlessTheDestinationHoldsItUnchanged() {
    StoreObject archived = StoreObject.archived("cold.bin", "cold.bin", 10, "e", 1_000, "GLACIER", false);
    StoreObject restoring = StoreObject.archived("warming.bin", "warming.bin", 10, "e", 1_000, "DEEP_ARCHIVE", true);
    StoreObject held = StoreObject.archived("held.bin", "held.bin", 10, "e", 1_000, "GLACIER", false);
    List<StoreObject> listed = List.of(archived, restoring, held);
    List<StoreObject> existing = List.of(new StoreObject("held.bin", "held.bin", 10, "", 1_000));
    record Row(ArchivedConfig.Policy policy, String expected) {}
    for (Row row : List.of(
        new Row(ArchivedConfig.Policy.FAIL, "cold.bin ARCHIVED, held.bin UNCHANGED, warming.bin ARCHIVED"),
        new Row(ArchivedConfig.Policy.SKIP, "cold.bin NOT_COPIED, held.bin UNCHANGED, warming.bin NOT_COPIED"),
        new Row(ArchivedConfig.Policy.RESTORE, "cold.bin RESTORE, held.bin UNCHANGED, warming.bin RESTORE"))) {
      List<Decision> decisions = triage(listed, existing, DIRECTORY, false, row.policy());
      assertThat(String.join(", ", decisions.stream().map(d -> d.object().key() + " " + d.kind()).toList())).as(row.policy().name())
          .isEqualTo(row.expected());
      PlanTotals totals = decisions.stream().map(PlanTotals::of).reduce(PlanTotals.NONE, PlanTotals::plus);
      assertThat(totals.archived()).as(row.policy().name()).isEqualTo(2);
      assertThat(totals.notCopied()).as("links only").isZero();
      assertThat(totals.restores()).isEqualTo(row.policy() == ArchivedConfig.Policy.RESTORE ? 1 : 0);
      assertThat(totals.restoreBytes()).isEqualTo(row.policy() == ArchivedConfig.Policy.RESTORE ? 10 : 0);
    }
    assertThat(triage(List.of(archived), List.of(), DIRECTORY, false).get(0).reason()).contains("GLACIER")
        .contains("source.archived = restore");
    assertThat(triage(List.of(restoring), List.of(), DIRECTORY, false, ArchivedConfig.Policy.SKIP).get(0).reason())
        .contains("DEEP_ARCHIVE").contains("restore under way").contains("source.archived = skip");
  }
}
