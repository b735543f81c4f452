package io.ferry.ledger;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of one file of entries in the ledger, the one place such names are built and read: a task attempt's
 * openings ({@code <run>-open-<partition>-<attempt>}) or copied parts ({@code <run>-copy-<partition>-<attempt>}) or restores requested
 * ({@code <run>-restore-<partition>-<attempt>}) or versions a replay wrote ({@code <run>-written-<partition>-<attempt>}), or
 * what the end of a run kept open ({@code kept-<millis>}: no run or partition, the millis held as its attempt). A
 * writer on an object store adds {@code .<entry>} to the name; every file ends {@code .jsonl}.
 */
public record LedgerFile(Kind kind, String run, int partition, long attempt) {
  public enum Kind {
    OPEN("open"), COPY("copy"), RESTORE("restore"), WRITTEN("written"), KEPT("kept");

    private final String word;

    Kind(String word) {
      this.word = word;
    }
  }

  private static final Pattern NAME = Pattern.compile("(.+)-(open|copy|restore|written)-(\\d{1,9})-(\\d{1,18})|kept-(\\d{1,18})");

  public static LedgerFile opening(String run, int partition, long attempt) {
    return new LedgerFile(Kind.OPEN, run, partition, attempt);
  }

  public static LedgerFile copying(String run, int partition, long attempt) {
    return new LedgerFile(Kind.COPY, run, partition, attempt);
  }

  public static LedgerFile restoring(String run, int partition, long attempt) {
    return new LedgerFile(Kind.RESTORE, run, partition, attempt);
  }

  /** The versions a task attempt of a replay wrote ({@code source.versions = all} into a bucket). */
  public static LedgerFile writing(String run, int partition, long attempt) {
    return new LedgerFile(Kind.WRITTEN, run, partition, attempt);
  }

  /** @param millis when it was kept, which makes it the latest file of its ledger */
  public static LedgerFile kept(long millis) {
    return new LedgerFile(Kind.KEPT, "", 0, millis);
  }

  public String name() {
    return kind == Kind.KEPT ? "kept-" + attempt : run + "-" + kind.word + "-" + partition + "-" + attempt;
  }

  /** What the names of every attempt of this file's task start with (a retried task finds its first attempt's openings). */
  public String ofEveryAttempt() {
    return run + "-" + kind.word + "-" + partition + "-";
  }

  /**
   * True for a file of entries, by its whole name: one this class names, or {@code <run>-open-driver.jsonl}, what early
   * versions wrote for openings on the driver (read and replaced like the rest, never written again).
   */
  public static boolean isEntries(String fileName) {
    if (!fileName.endsWith(".jsonl")) return false;
    String name = fileName.substring(0, fileName.length() - ".jsonl".length());
    return parse(name).isPresent() || name.endsWith("-open-driver");
  }

  /** The file a name (without {@code .jsonl}, with or without an entry's number) was written as, if a ledger's. */
  public static Optional<LedgerFile> parse(String name) {
    int dot = name.indexOf('.');
    Matcher m = NAME.matcher(dot < 0 ? name : name.substring(0, dot));
    if (!m.matches()) return Optional.empty();
    if (m.group(5) != null) return Optional.of(kept(Long.parseLong(m.group(5))));
    Kind kind = switch (m.group(2)) {
      case "open" -> Kind.OPEN;
      case "restore" -> Kind.RESTORE;
      case "written" -> Kind.WRITTEN;
      default -> Kind.COPY;
    };
    return Optional.of(new LedgerFile(kind, m.group(1), Integer.parseInt(m.group(3)), Long.parseLong(m.group(4))));
  }
}
