package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.store.KeyOrder;
import io.ferry.store.Shard;
import io.ferry.store.listing.KeySpace;
import io.ferry.store.listing.KeySpaceTest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@link Settled}: a shard's bounds against the block of keys under a key (a table), and, over the rounds of real
 * listings ({@link KeySpace} against a sorted bucket in memory, as spark/Listing runs them), that a key it calls settled
 * in a round has every key under it listed in that round, and itself too if the bucket holds it.
 */
class SettledTest {
  @ParameterizedTest(name = "{0} after {1} up to {2} (recursive {3}), block {4}: may hold {5}, holds all {6}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      // prefix | after | upTo | recursive | block | mayHold | holdsAll
      "P/   | -      | -      | true  | P/a/ | true  | true",   // all of the prefix
      "P/   | P/a     | -      | true  | P/a/ | true  | true",   // after the key itself: its block is still ahead
      "P/   | P/a/    | -      | true  | P/a/ | true  | false",  // after the block's first key
      "P/   | P/a/x   | -      | true  | P/a/ | true  | false",  // after a key inside the block
      "P/   | P/a0    | -      | true  | P/a/ | false | false",  // after the whole block ('0' follows '/')
      "P/   | P/b     | -      | true  | P/a/ | false | false",
      "P/   | -      | P/a/z   | true  | P/a/ | true  | false",  // up to a key inside the block
      "P/   | -      | P/a/    | true  | P/a/ | true  | false",  // up to the block's first key
      "P/   | -      | P/a0    | true  | P/a/ | true  | true",   // up to a key past the block
      "P/   | -      | P/a     | true  | P/a/ | false | false",  // up to the key itself: the block lies beyond
      "P/   | P/a     | P/a0    | true  | P/a/ | true  | true",
      "P/b/ | -      | -      | true  | P/a/ | false | false",  // another folder
      "P/a/x| -      | -      | true  | P/a/ | true  | false",  // a folder inside the block: holds some of it
      "P/a  | -      | -      | true  | P/a/ | true  | true",   // keys starting with P/a hold the block
      "P/   | -      | -      | false | P/a/ | true  | false",  // one level only: not the keys under P/a/
      "-   | -      | -      | true  | a/   | true  | true",
  })
  void aShardsBoundsAgainstABlock(String prefix, String after, String upTo, boolean recursive, String block, boolean mayHold,
      boolean holdsAll) {
    Shard shard = new Shard(text(prefix), text(after), text(upTo), recursive);
    assertThat(Settled.mayHold(shard, text(block))).as("may hold").isEqualTo(mayHold);
    assertThat(Settled.holdsAll(shard, text(block))).as("holds all").isEqualTo(holdsAll);
  }

  /** The table's text: "-" for none. */
  private static String text(String cell) {
    return cell.trim().equals("-") ? "" : cell.trim();
  }

  @Test
  void aKeyIsSettledWhenItAndItsBlockAreListedAndNothingLeftMayHoldThem() {
    Settled.Round round = new Settled.Round(0, List.of(Shard.all("P/")), List.of(new Shard("P/", "P/m", "", true)));
    assertThat(Settled.settled("P/a", round)).isTrue();
    assertThat(Settled.settled("P/m", round)).as("its block lies in what is left").isFalse();
    assertThat(Settled.settled("P/n", round)).as("listed later").isFalse();
    assertThat(Settled.settled("Q/a", round)).as("not in the round's shards").isFalse();
    // a folder the level listing left ("P/a/" beside "P/a"): the file waits for its folder's keys
    Settled.Round level = new Settled.Round(0, List.of(Shard.all("P/")), List.of(Shard.all("P/a/")));
    assertThat(Settled.settled("P/a", level)).isFalse();
    assertThat(Settled.settled("P/b", level)).isTrue();
    assertThat(Settled.settled("P/a/x", level)).as("left for the next round").isFalse();
    // keys where servers disagree on order wait for the whole plan
    assertThat(Settled.settled("P/\uFF21", round)).isFalse();
    assertThat(Settled.settled("P/\uD83D\uDE00", round)).isFalse();
    Settled.Round next = new Settled.Round(1, List.of(new Shard("P/", "P/m", "", true)), List.of(new Shard("P/", "P/p", "", true)));
    assertThat(Settled.settled("P/n", next)).isTrue();
  }

  /** The rounds of a listing of {@code b} and the keys each listed. */
  private record Rounds(List<Settled.Round> rounds, List<List<String>> keys) {}

  private static Rounds list(KeySpaceTest.Bucket b, int target, int pageKeys) throws IOException {
    List<Settled.Round> rounds = new ArrayList<>();
    List<List<String>> keys = new ArrayList<>();
    List<Shard> open = List.of(Shard.all(""));
    for (int round = 0; !open.isEmpty(); round++) {
      List<Shard> next = new ArrayList<>();
      List<String> listed = new ArrayList<>();
      for (Shard shard : open) next.addAll(KeySpace.list(shard, KeySpace.pages(open.size(), round, target), pageKeys, b, listed::add));
      rounds.add(new Settled.Round(round, open, next));
      keys.add(listed);
      open = next;
    }
    return new Rounds(rounds, keys);
  }

  private static final String[] PARTS = {"a", "b", "a0", "a-b", "img_", "0", "9", "z", "A", "x.bin", "\u00e9", "\uFF21",
      "\uD83D\uDE00", " ", "_", "~"};

  @Test
  void overRandomBucketsASettledKeyHasEveryKeyUnderItInItsRound() throws IOException {
    for (long seed = 1; seed <= 200; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      List<String> keys = new ArrayList<>();
      int n = 20 + r.nextInt(400);
      for (int i = 0; i < n; i++) {
        StringBuilder k = new StringBuilder();
        for (int depth = 1 + r.nextInt(4); depth > 0; depth--) {
          k.append(PARTS[r.nextInt(PARTS.length)]);
          if (r.nextInt(3) == 0) k.append(String.format(Locale.ROOT, "%03d", r.nextInt(200)));
          if (depth > 1) k.append('/');
        }
        keys.add(k.toString());
      }
      KeySpaceTest.Bucket b = new KeySpaceTest.Bucket(keys, seed % 2 == 0 ? KeyOrder.COMPARATOR : String::compareTo);
      Rounds l = list(b, 2 + r.nextInt(40), 1 + r.nextInt(5));
      Map<String, Integer> roundOf = new HashMap<>();
      for (int i = 0; i < l.keys().size(); i++) for (String k : l.keys().get(i)) roundOf.put(k, i);
      assertThat(roundOf.keySet()).as("seed %d: every key listed once", seed).containsExactlyInAnyOrderElementsOf(b.keys);
      // every key, every folder of one, and texts the bucket lacks: a destination's key need not be a source's
      List<String> asked = new ArrayList<>(b.keys);
      for (String k : b.keys) for (int s = k.indexOf('/'); s >= 0; s = k.indexOf('/', s + 1)) asked.add(k.substring(0, s));
      for (String k : List.of("a", "b/x", "zz", "img_5", "")) asked.add(k);
      for (int i = 0; i < l.rounds().size(); i++) {
        Settled.Round round = l.rounds().get(i);
        if (round.left().isEmpty()) continue; // the last round: the whole plan's
        for (String k : asked) {
          if (!Settled.settled(k, round)) continue;
          if (roundOf.containsKey(k)) assertThat(roundOf.get(k)).as("seed %d: round of settled %s", seed, k).isEqualTo(i);
          for (String under : b.keys) {
            if (under.startsWith(k + "/")) assertThat(roundOf.get(under)).as("seed %d: %s under settled %s", seed, under, k).isEqualTo(i);
          }
        }
      }
    }
  }

  @Test
  void mostOfAFlatFolderSettlesInTheRoundsBeforeItsLast() throws IOException {
    // in full pages a folder of 20,000 keys is listed whole in its first read: 50,000 keys split; pages of 999 at 20,000
    for (int[] shape : new int[][] {{50_000, 1000}, {20_000, 999}}) {
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < shape[0]; i++) keys.add(String.format(Locale.ROOT, "data/obj-%05d", i));
      Rounds l = list(new KeySpaceTest.Bucket(keys), 64, shape[1]);
      long early = 0;
      for (int i = 0; i < l.rounds().size() - 1; i++) {
        Settled.Round round = l.rounds().get(i);
        for (String k : l.keys().get(i)) if (Settled.settled(k, round)) early++;
      }
      long beforeLast = keys.size() - l.keys().get(l.keys().size() - 1).size();
      assertThat(l.rounds()).hasSizeGreaterThan(2);
      assertThat(beforeLast).as("keys listed before the last round").isGreaterThanOrEqualTo(shape[1] * 8L);
      // only a shard's last key listed waits: the keys after it may lie under it
      assertThat(early).isGreaterThanOrEqualTo(beforeLast - l.rounds().stream().mapToLong(r -> r.listed().size()).sum());
    }
  }
}
