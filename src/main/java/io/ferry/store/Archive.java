package io.ferry.store;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether an object's bytes can be read now, from what a store says of it: its storage class (a listing's or a
 * HEAD's), the {@code x-amz-restore} header of a HEAD, and, for S3 Intelligent-Tiering, {@code x-amz-archive-status}.
 * An archived object answers a GET with 403 InvalidObjectState until a RestoreObject has made a temporary copy of it
 * readable; that copy expires after the days the request asked for, and the object is archived again.
 */
public final class Archive {
  private Archive() {}

  /** What a GET of the object would do now. */
  public enum State {
    /** Bytes served: not archived, or a restored copy is there. */
    READABLE,
    /** Archived, and no restore is under way: a RestoreObject is needed before any GET. */
    ARCHIVED,
    /** Archived, and a restore is under way: readable once it finishes. */
    RESTORING
  }

  /**
   * Storage classes whose objects must be restored before a GET, as listings name them: AWS S3 Glacier Flexible
   * Retrieval and Deep Archive (IBM COS lists its archive tiers as GLACIER as well), Alibaba OSS Archive, Cold
   * Archive and Deep Cold Archive. Glacier Instant Retrieval is read like Standard.
   */
  private static final Set<String> ARCHIVAL = Set.of("GLACIER", "DEEP_ARCHIVE", "ARCHIVE", "COLDARCHIVE", "DEEPCOLDARCHIVE");

  /** Intelligent-Tiering: its objects move into archive tiers only a HEAD shows ({@code x-amz-archive-status}). */
  private static final String TIERING = "INTELLIGENT_TIERING";

  /** Whether objects of this class may be archived, so a listing must ask a HEAD before it plans a GET of one. */
  public static boolean mayBeArchived(String storageClass) {
    String c = normal(storageClass);
    return ARCHIVAL.contains(c) || c.equals(TIERING);
  }

  /** Whether RestoreObject for an object of this class takes a number of days (an Intelligent-Tiering one moves back instead). */
  public static boolean restoresForDays(String storageClass) {
    return !normal(storageClass).equals(TIERING);
  }

  private static final Pattern ONGOING = Pattern.compile("ongoing-request\\s*=\\s*\"?(true|false)\"?", Pattern.CASE_INSENSITIVE);

  /**
   * The state a HEAD's answer shows.
   *
   * @param storageClass the object's class ("" or null: STANDARD)
   * @param restore the {@code x-amz-restore} header (null when absent): {@code ongoing-request="true"} while a restore
   *     runs, {@code ongoing-request="false", expiry-date="..."} once its copy is readable
   * @param archiveStatus the {@code x-amz-archive-status} header (null when absent): ARCHIVE_ACCESS or DEEP_ARCHIVE_ACCESS
   *     for an Intelligent-Tiering object in an archive tier
   */
  public static State of(String storageClass, String restore, String archiveStatus) {
    String c = normal(storageClass);
    boolean archived = ARCHIVAL.contains(c) || c.equals(TIERING) && archiveStatus != null && !archiveStatus.isBlank();
    if (!archived) return State.READABLE;
    if (restore == null || restore.isBlank()) return State.ARCHIVED;
    Matcher m = ONGOING.matcher(restore);
    if (!m.find()) return State.ARCHIVED;
    return m.group(1).equalsIgnoreCase("true") ? State.RESTORING : State.READABLE;
  }

  /** A class name as compared: upper case, without the separators providers differ in ("ColdArchive", "COLD_ARCHIVE"). */
  static String normal(String storageClass) {
    if (storageClass == null) return "";
    String c = storageClass.trim().toUpperCase(Locale.ROOT);
    return c.equals("DEEP_ARCHIVE") || c.equals(TIERING) ? c : c.replace("_", "").replace("-", "");
  }
}
