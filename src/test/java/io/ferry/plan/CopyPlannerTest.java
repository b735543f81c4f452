package io.ferry.plan;

import io.ferry.store.ByteRange;
import io.ferry.store.StoreObject;
import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.PlanConfig;
import io.ferry.store.Capabilities;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopyPlannerTest {
  private static final PlanConfig CONFIG = new PlanConfig(100, 250, 3);
  private static final Capabilities LIMITS = new Capabilities(1, Long.MAX_VALUE, 10_000, true, true, false);

  private static StoreObject object(String key, long size) {
    return new StoreObject(key, key, size, "etag-" + key, 1_000L);
  }

  @Test
  void largeObjectsBecomeOneTaskPerPart() {
    Planned plan = plan(List.of(object("big", 301)));
    assertThat(plan.tasks()).hasSize(4);
    assertThat(plan.tasks()).allSatisfy(t -> assertThat(t.ranges()).hasSize(1));
    assertThat(plan.tasks().stream().map(t -> t.ranges().get(0).range()).toList())
        .containsExactly(new ByteRange(0, 100), new ByteRange(100, 100), new ByteRange(200, 100), new ByteRange(300, 1));
    assertThat(plan.tasks().get(3).ranges().get(0).partCount()).isEqualTo(4);
    assertThat(plan.splitObjects()).isEqualTo(1);
    assertThat(plan.ranges()).isEqualTo(4);
    assertThat(plan.bytes()).isEqualTo(301);
  }

  @Test
  void objectsOfAtMostOnePartAreWholeAndBundledByBytesAndCount() {
    // bundle-size 250 bytes, bundle-objects 3
    List<StoreObject> objects = List.of(object("a", 100), object("b", 100), object("c", 100), // 300 > 250: c starts a new bundle
        object("d", 0), object("e", 1), object("f", 1)); // c,d,e: 3 objects; f starts a new one
    Planned plan = plan(objects);
    List<List<String>> bundles = new ArrayList<>();
    for (CopyTask task : plan.tasks()) bundles.add(task.ranges().stream().map(r -> r.object().key()).toList());
    assertThat(bundles).containsExactly(List.of("a", "b"), List.of("c", "d", "e"), List.of("f"));
    assertThat(plan.tasks()).allSatisfy(t -> assertThat(t.ranges()).allSatisfy(r -> assertThat(r.wholeObject()).isTrue()));
    assertThat(plan.splitObjects()).isZero();
  }

  @Test
  void anObjectAnEarlierRunLeftOpenKeepsItsPartSizeWhileItIsTheObjectOpenedAndTheSizeIsOneTheDestinationTakes() {
    StoreObject open = object("open", 90);
    StoreObject changed = object("changed", 90);
    var kept = java.util.Map.of("open", new CopyPlanner.OpenedBefore(open, 40),
        "changed", new CopyPlanner.OpenedBefore(object("changed", 80), 40), "tiny", new CopyPlanner.OpenedBefore(object("tiny", 90), 4),
        "gone", new CopyPlanner.OpenedBefore(object("gone", 9), 7));
    // the destination takes parts of 5 to 1,000 bytes: "tiny" was opened in parts it no longer takes (another destination)
    CopyPlanner planner = new CopyPlanner(CONFIG, new Capabilities(5, 1000, 10_000, true, true, false), false, 0, kept);
    List<CopyTask> tasks = new ArrayList<>(planner.add(open));
    tasks.addAll(planner.add(changed));
    tasks.addAll(planner.add(object("tiny", 90)));
    tasks.addAll(planner.add(object("big", 250)));
    tasks.addAll(planner.finish());
    // "open" was cut in parts of 40 bytes by a run now resumed: split in those, though 100 would hold it whole
    assertThat(ranges(tasks, "open")).containsExactly(new ByteRange(0, 40), new ByteRange(40, 40), new ByteRange(80, 10));
    // its source changed since (its upload is aborted): the config's part size, so whole
    assertThat(ranges(tasks, "changed")).containsExactly(new ByteRange(0, 90));
    assertThat(ranges(tasks, "tiny")).containsExactly(new ByteRange(0, 90));
    assertThat(ranges(tasks, "big")).containsExactly(new ByteRange(0, 100), new ByteRange(100, 100), new ByteRange(200, 50));
  }

  private static List<ByteRange> ranges(List<CopyTask> tasks, String key) {
    return tasks.stream().flatMap(t -> t.ranges().stream()).filter(r -> r.object().key().equals(key)).map(RangeTask::range).toList();
  }

  @Test
  void anEmptyObjectIsOneEmptyRangeAndNeedsNoRequest() {
    Planned plan = plan(List.of(object("empty", 0)));
    assertThat(plan.tasks()).hasSize(1);
    RangeTask range = plan.tasks().get(0).ranges().get(0);
    assertThat(range.range()).isEqualTo(new ByteRange(0, 0));
    assertThat(range.partCount()).isEqualTo(1);
    assertThat(plan.getRequests()).isZero();
  }

  @Test
  void mixedInputKeepsListingOrderAndDenseIds() {
    List<StoreObject> objects = List.of(object("s1", 10), object("big", 250), object("s2", 10));
    Planned plan = plan(objects);
    // the pending bundle [s1] stays open across the large object's parts and is flushed with s2 at the end
    assertThat(plan.tasks().stream().map(CopyTask::id).toList()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(plan.tasks().get(3).ranges().stream().map(r -> r.object().key()).toList()).containsExactly("s1", "s2");
    assertThat(plan.ranges()).isEqualTo(5);
    assertThat(plan.getRequests()).isEqualTo(5);
    assertThat(plan(objects)).isEqualTo(plan);
  }

  @Test
  void tasksComeOutAsTheyAreCompleteAndIdsCountUpFromTheFirst() {
    CopyPlanner planner = new CopyPlanner(CONFIG, LIMITS, false, 7L << 32);
    assertThat(planner.add(object("a", 100))).isEmpty(); // waits in the open bundle
    List<CopyTask> parts = planner.add(object("big", 201));
    assertThat(parts).extracting(CopyTask::id).containsExactly(7L << 32, (7L << 32) + 1, (7L << 32) + 2);
    assertThat(planner.add(object("b", 100))).isEmpty();
    assertThat(planner.add(object("c", 100))).singleElement().satisfies(t -> { // a + b + c > 250 bytes
      assertThat(t.id()).isEqualTo((7L << 32) + 3);
      assertThat(t.ranges()).extracting(r -> r.object().key()).containsExactly("a", "b");
    });
    assertThat(planner.finish()).singleElement().satisfies(t -> {
      assertThat(t.id()).isEqualTo((7L << 32) + 4);
      assertThat(t.ranges()).extracting(r -> r.object().key()).containsExactly("c");
    });
    assertThat(planner.finish()).isEmpty();
  }

  @Test
  void nothingToCopyIsAnEmptyPlan() {
    Planned plan = plan(List.of());
    assertThat(plan.tasks()).isEmpty();
    assertThat(plan.objects()).isZero();
  }

  @Test
  void serverSideCopiesKeepObjectsUpToTheCopyCutoffWholeAndSplitLargerOnes() {
    PlanConfig config = new PlanConfig(100, 250, 3, 1000);
    Planned plan = plan(new CopyPlanner(config, LIMITS, true, 0), List.of(object("at-part", 100), object("above-part", 101),
        object("at-cutoff", 1000), object("above-cutoff", 1001)));
    assertThat(plan.splitObjects()).isEqualTo(1);
    assertThat(plan.ranges()).isEqualTo(3 + 11); // three whole objects, 1001 bytes in 100-byte parts
    assertThat(plan.tasks().stream().flatMap(t -> t.ranges().stream()).filter(RangeTask::wholeObject).map(r -> r.object().key()))
        .containsExactly("at-part", "above-part", "at-cutoff");
    // the same objects streamed through executors: split above the part size
    assertThat(plan(new CopyPlanner(config, LIMITS, false, 0), List.of(object("above-part", 101), object("at-cutoff", 1000)))
        .splitObjects()).isEqualTo(2);
  }

  /** What a partition of the plan gives (PlanFunction): the tasks as the planner hands them out, and their totals. */
  private record Planned(List<CopyTask> tasks, PlanTotals totals) {
    long splitObjects() {
      return totals.splitObjects();
    }

    long ranges() {
      return totals.ranges();
    }

    long objects() {
      return totals.objects();
    }

    long bytes() {
      return totals.bytes();
    }

    long getRequests() {
      return totals.gets();
    }
  }

  private static Planned plan(List<StoreObject> objects) {
    return plan(new CopyPlanner(CONFIG, LIMITS, false, 0), objects);
  }

  private static Planned plan(CopyPlanner planner, List<StoreObject> objects) {
    List<CopyTask> tasks = new ArrayList<>();
    for (StoreObject o : objects) tasks.addAll(planner.add(o));
    tasks.addAll(planner.finish());
    return new Planned(tasks, tasks.stream().map(PlanTotals::of).reduce(PlanTotals.NONE, PlanTotals::plus));
  }
}
