package io.ferry.commit;

import io.ferry.copy.Concurrently;
import io.ferry.copy.InOrderDigests;
import io.ferry.plan.PartSizing;
import io.ferry.store.ByteRange;
import io.ferry.store.Uploads;
import io.ferry.store.checksums.Checksum;
import io.ferry.store.retry.Failures;
import io.ferry.store.retry.Retrier;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * COMMIT: an object whose parts all arrived is checked, then completed (fsync and rename into place,
 * CompleteMultipartUpload with every part's ETag in order); any other is aborted (temp file removed,
 * AbortMultipartUpload), leaving nothing at its final name and its previous version intact. The check, before the
 * completion (none for a copy inside the service, whose bytes never left it): the source's stored checksum, from the
 * parts' digests combined (an object copied whole was checked as it was read); else the source's MD5 ETag, against the
 * bytes read back from the destination (digested in order as the parts landed where they landed in one JVM, {@link
 * InOrderDigests}, and the file's CRC32C read back at the commit to show it holds those bytes still, a stray attempt's
 * write included; else read back whole at the commit); else the CRC32C of the bytes read from the source, against the
 * bytes read back. An object that fails its check is copied again ({@link Repair}), and fails for good, with the parts
 * whose bytes changed between the two reads named, if it still does not match. A batch (one Spark task's objects) is
 * committed on {@code threads} threads, so fsyncs and completions overlap, then the destination flushes what it
 * deferred. Free of Spark.
 */
public final class Committer {
  /** Copies every part of an object again (the same upload, the same part numbers), for an object that failed its check. */
  @FunctionalInterface
  public interface Repair {
    PartTally recopy(PartTally tally) throws Exception;
  }

  /** How an object's bytes were checked, and whether they passed. */
  record Check(boolean ok, String how, String checksum, String problem) {
    static Check passed(String how, String checksum) {
      return new Check(true, how, checksum, "");
    }

    static Check failed(String how, String problem) {
      return new Check(false, how, "", problem);
    }
  }

  /** A copy's repairs before it fails for good. */
  static final int REPAIRS = 2;

  private final Uploads destination;
  private final int threads;
  private final Retrier retrier;
  private final Repair repair;

  /**
   * @param retrier the job's retry policy for completions and aborts
   * @param repair copies an object again when it fails its check (null: it fails at once)
   */
  public Committer(Uploads destination, int threads, Retrier retrier, Repair repair) {
    this.destination = destination;
    this.threads = threads;
    this.retrier = retrier;
    this.repair = repair;
  }

  public Committer(Uploads destination, int threads, Retrier retrier) {
    this(destination, threads, retrier, null);
  }

  public List<ObjectResult> commit(List<PartTally> tallies) throws Exception {
    List<ObjectResult> results = Concurrently.map(tallies, threads, "ferry-commit", this::commit);
    destination.flush();
    return results;
  }

  ObjectResult commit(PartTally tally) {
    String error = tally.firstError();
    String tiling = tally.complete() ? tilingProblem(tally) : null;
    if (tiling != null) {
      error = "not committed: its parts do not make the object exactly (" + tiling + ")";
    } else if (tally.complete()) {
      try {
        Check check = verify(tally);
        List<Integer> changed = new ArrayList<>();
        for (int round = 0; !check.ok() && repair != null && round < REPAIRS; round++) {
          PartTally again = repair.recopy(tally);
          if (!again.complete()) {
            check = Check.failed(check.how(), check.problem() + "; copying it again failed: " + again.firstError());
            break;
          }
          for (Map.Entry<Integer, PartTally.Part> p : again.parts().entrySet()) {
            boolean differs = !p.getValue().crc32c().equals(tally.parts().get(p.getKey()).crc32c());
            if (differs && !changed.contains(p.getKey())) changed.add(p.getKey());
          }
          tally = again;
          check = verify(tally);
        }
        if (!check.ok()) {
          error = "not committed: " + check.problem() + (changed.isEmpty() ? ""
              : "; the bytes of part(s) " + changed + " changed between two reads of the source");
        } else {
          PartTally done = tally;
          String notCarried = retrier.call(() -> destination.complete(done.upload(), done.receipts()));
          return new ObjectResult(tally.object(), tally.location(), tally.partCount(), tally.bytes(), ObjectResult.Status.COPIED, "",
              check.how(), check.checksum(), notCarried);
        }
      } catch (Exception e) {
        error = "commit failed: " + Failures.describe(e);
      }
    } else if (error.isEmpty()) {
      error = "only " + tally.parts().size() + " of " + tally.partCount() + " parts arrived";
    }
    try {
      PartTally aborted = tally;
      retrier.run(() -> destination.abort(aborted.upload()));
    } catch (Exception e) {
      error = error + "; the abort failed too: " + Failures.describe(e);
    }
    return ObjectResult.failed(tally.object(), tally.location(), tally.partCount(), tally.bytes(), error);
  }

  private static String tilingProblem(PartTally tally) {
    SortedMap<Integer, ByteRange> ranges = new TreeMap<>();
    tally.parts().forEach((n, p) -> ranges.put(n, new ByteRange(p.offset(), p.length())));
    return PartSizing.tilingProblem(tally.object().size(), tally.partCount(), ranges);
  }

  /** The check of a complete object, in the order of the class comment. */
  Check verify(PartTally tally) throws Exception {
    if (tally.inService()) return Check.passed("server-side-copy", ""); // the service copied its own bytes
    Checksum expected = Checksum.parse(tally.expected());
    String got = expected != null && expected.checkable() && expected.algorithm().combinable() ? combined(tally, expected.algorithm())
        : null;
    if (got != null) {
      String how = "source-" + expected.algorithm().label();
      return got.equals(expected.value()) ? Check.passed(how, expected.algorithm().label() + ":" + got)
          : Check.failed(how, "the copy's " + expected.algorithm().label() + " " + got + " does not match the source's "
          + expected.value());
    }
    if (expected != null && expected.checkable() && tally.partCount() == 1) {
      return Check.passed("source-" + (expected.algorithm() == Checksum.Algorithm.MD5 ? "md5-etag" : expected.algorithm().label()),
          tally.parts().firstEntry().getValue().checksum()); // checked against it as the object was read
    }
    long crc = crc32cOfParts(tally);
    String written = Checksum.encode(crc, 4);
    if (expected != null && expected.algorithm() == Checksum.Algorithm.MD5) {
      // digested in order as the parts landed, from the bytes these parts' CRC32Cs describe; else read back now
      String inOrder = tally.objectDigest().isEmpty() ? null
          : InOrderDigests.md5(tally.objectDigest(), crc, destination.staged(tally.upload()));
      if (inOrder != null && !written.equals(destination.readBack(tally.upload(), Checksum.Algorithm.CRC32C))) {
        inOrder = null; // the file no longer holds the bytes digested: a stray attempt wrote a part after it was read back
      }
      String back = inOrder != null ? inOrder : destination.readBack(tally.upload(), Checksum.Algorithm.MD5);
      if (back != null) {
        return back.equals(expected.value()) ? Check.passed("source-md5-etag", "md5:" + back)
            : Check.failed("source-md5-etag", "the copy's MD5 " + back + " does not match the source's ETag " + expected.value());
      }
    }
    String back = destination.readBack(tally.upload(), Checksum.Algorithm.CRC32C);
    if (back == null) return Check.passed("none", "");
    return back.equals(written) ? Check.passed("read-back-crc32c", "crc32c:" + back)
        : Check.failed("read-back-crc32c", "the destination holds crc32c " + back + " but " + written + " was written");
  }

  /**
   * The object's checksum in {@code algorithm}, combined from its parts' digests in part order; null when a part kept
   * none (resumed from a ledger entry without one), and the next check applies.
   */
  private static String combined(PartTally tally, Checksum.Algorithm algorithm) {
    long crc = 0;
    for (Map.Entry<Integer, PartTally.Part> e : tally.parts().entrySet()) {
      Checksum part = Checksum.parse(e.getValue().checksum());
      if (part == null || part.algorithm() != algorithm) return null;
      crc = Checksum.combine(algorithm, crc, Checksum.decode(part.value()), e.getValue().length());
    }
    return Checksum.encode(crc, Checksum.crcBytes(algorithm));
  }

  private static long crc32cOfParts(PartTally tally) {
    long crc = 0;
    for (PartTally.Part p : tally.parts().values()) {
      crc = Checksum.combine(Checksum.Algorithm.CRC32C, crc, Integer.toUnsignedLong(HexFormat.fromHexDigits(p.crc32c())), p.length());
    }
    return crc;
  }
}
