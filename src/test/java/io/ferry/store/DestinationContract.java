package io.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every destination owes the pipeline, written once and run against each store kind (a directory here,
 * a bucket on S3Proxy over HTTP): ranges written in any order make the whole object at completion and nothing is
 * visible before; a retried range is harmless; abort leaves no trace and the previous version intact; a repeated
 * completion succeeds; what was written is listed.
 */
public abstract class DestinationContract {
  private static final long MTIME = 1_543_622_400_000L; // 2018-12-01

  /** A fresh destination, empty, for one test. */
  protected abstract Destination destination() throws Exception;

  /** The bytes at the object's final name, or null when nothing is there. */
  protected abstract byte[] read(String relativeKey) throws Exception;

  /** Puts bytes at the object's final name as if an earlier run had copied them. */
  protected abstract void put(String relativeKey, byte[] bytes) throws Exception;

  /** What an unfinished write leaves behind and only completion or abort removes: temp files, open uploads. */
  protected abstract int leftovers() throws Exception;

  private static StoreObject object(String key, long size) {
    return new StoreObject("src/" + key, key, size, "etag-" + key, MTIME);
  }

  private static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) b[i] = (byte) (i * 31 + seed);
    return b;
  }

  private static Body body(byte[] all, ByteRange range, long from) {
    return () -> new ByteArrayInputStream(all, (int) (range.offset() + from), (int) (range.length() - from));
  }

  private static final ObjectMetadata.Lazy METADATA = () -> new ObjectMetadata("application/x-test", null, null, null, Map.of("m", "1"));

  /** Parts of the smallest size the destination takes (but the last): three parts and a bit. */
  private record Parts(byte[] bytes, List<ByteRange> ranges) {}

  private Parts parts(Destination d, int seed) {
    long part = Math.max(d.capabilities().minPartSize(), 16);
    byte[] all = bytes((int) (2 * part + 7), seed);
    return new Parts(all, List.of(new ByteRange(0, part), new ByteRange(part, part), new ByteRange(2 * part, 7)));
  }

  private static String write(Destination d, Upload upload, Parts p, int partNumber) throws IOException {
    ByteRange range = p.ranges().get(partNumber - 1);
    return d.write(upload, partNumber, range, 0, body(p.bytes(), range, 0), METADATA);
  }

  @Test
  void rangesWrittenInAnyOrderMakeTheWholeObjectOnlyAtCompletion() throws Exception {
    Destination d = destination();
    Parts p = parts(d, 1);
    StoreObject o = object("dir/sub/object.bin", p.bytes().length);
    Upload upload = d.open(o, METADATA);
    assertThat(upload.inParts()).isTrue();
    SortedMap<Integer, String> receipts = new TreeMap<>();
    for (int part : new int[] {3, 1, 2}) receipts.put(part, write(d, upload, p, part));
    receipts.put(2, write(d, upload, p, 2)); // a retried range writes the same bytes again: harmless
    assertThat(read("dir/sub/object.bin")).as("nothing at the final name before completion").isNull();
    d.complete(upload, receipts);
    d.flush();
    assertThat(read("dir/sub/object.bin")).isEqualTo(p.bytes());
    assertThat(leftovers()).isZero();
  }

  @Test
  void anObjectWrittenWholeIsVisibleAfterItsCompletion() throws Exception {
    Destination d = destination();
    byte[] all = bytes(1000, 2);
    StoreObject o = object("whole.bin", all.length);
    Upload upload = Upload.whole(o);
    String receipt = d.write(upload, 1, new ByteRange(0, all.length), 0, body(all, new ByteRange(0, all.length), 0), METADATA);
    d.complete(upload, new TreeMap<>(Map.of(1, receipt)));
    assertThat(read("whole.bin")).isEqualTo(all);
    StoreObject empty = object("empty", 0);
    String none = d.write(Upload.whole(empty), 1, new ByteRange(0, 0), 0, body(new byte[0], new ByteRange(0, 0), 0), METADATA);
    d.complete(Upload.whole(empty), new TreeMap<>(Map.of(1, none)));
    assertThat(read("empty")).isEmpty();
    assertThat(leftovers()).isZero();
  }

  @Test
  void abortLeavesNoTraceAndThePreviousVersionIntact() throws Exception {
    Destination d = destination();
    Parts p = parts(d, 3);
    put("kept.bin", "previous version".getBytes());
    StoreObject o = object("kept.bin", p.bytes().length);
    Upload upload = d.open(o, METADATA);
    write(d, upload, p, 1);
    write(d, upload, p, 3);
    d.abort(upload);
    d.abort(upload); // an abort repeated after an executor loss: harmless
    assertThat(read("kept.bin")).isEqualTo("previous version".getBytes());
    assertThat(leftovers()).isZero();
  }

  @Test
  void aRepeatedCompletionSucceedsAndChangesNothing() throws Exception {
    Destination d = destination();
    Parts p = parts(d, 4);
    StoreObject o = object("twice.bin", p.bytes().length);
    Upload upload = d.open(o, METADATA);
    SortedMap<Integer, String> receipts = new TreeMap<>();
    for (int part = 1; part <= 3; part++) receipts.put(part, write(d, upload, p, part));
    d.complete(upload, receipts);
    d.complete(upload, receipts); // a commit recomputed after an executor loss
    assertThat(read("twice.bin")).isEqualTo(p.bytes());
  }

  @Test
  void whatWasWrittenIsListedAndUnchangedByTheDestinationsRule() throws Exception {
    Destination d = destination();
    Map<String, byte[]> written = new HashMap<>();
    for (String key : List.of("a.txt", "b/c.txt")) {
      byte[] all = bytes(100 + key.length(), key.length());
      StoreObject o = object(key, all.length);
      d.write(Upload.whole(o), 1, new ByteRange(0, all.length), 0, body(all, new ByteRange(0, all.length), 0), METADATA);
      d.complete(Upload.whole(o), new TreeMap<>(Map.of(1, "")));
      written.put(key, all);
    }
    Map<String, StoreObject> listed = new TreeMap<>();
    d.existing().list(o -> listed.put(o.relativeKey(), o));
    assertThat(listed.keySet()).containsExactly("a.txt", "b/c.txt");
    for (var e : listed.entrySet()) {
      assertThat(e.getValue().size()).isEqualTo(written.get(e.getKey()).length);
      assertThat(d.unchanged(object(e.getKey(), written.get(e.getKey()).length), e.getValue())).isTrue();
      assertThat(d.unchanged(object(e.getKey(), written.get(e.getKey()).length + 1), e.getValue())).isFalse();
    }
  }

  @Test
  void aResumableWriteContinuesAtItsLastByte() throws Exception {
    Destination d = destination();
    if (!d.capabilities().resumableWrites()) {
      assertThatThrownBy(() -> d.write(Upload.whole(object("x", 10)), 1, new ByteRange(0, 10), 4,
          body(bytes(10, 5), new ByteRange(0, 10), 4), METADATA)).isInstanceOf(IllegalArgumentException.class);
      return;
    }
    byte[] all = bytes(1000, 5);
    StoreObject o = object("resumed.bin", all.length);
    ByteRange range = new ByteRange(0, all.length);
    byte[] first = Arrays.copyOf(all, 400);
    d.write(Upload.whole(o), 1, range, 0, () -> new ByteArrayInputStream(first), METADATA); // as if the stream had broken at 400
    d.write(Upload.whole(o), 1, range, 400, body(all, range, 400), METADATA);
    d.complete(Upload.whole(o), new TreeMap<>(Map.of(1, "")));
    assertThat(read("resumed.bin")).isEqualTo(all);
  }
}
