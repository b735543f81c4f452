package io.ferry.config;

import java.nio.file.Path;
import java.util.List;

/** {@code ferry.destination}: where objects land, how they are written, and the cut-over pass. */
final class DestinationSection {
  private DestinationSection() {}

  /** The destination, or null when a problem leaves none to build. */
  static DestinationConfig read(Hocon h, boolean bucketSource) {
    DestinationConfig.ServerSideCopy serverSideCopy = h.enumValue("destination.server-side-copy", DestinationConfig.ServerSideCopy.class);
    StoreConfig store = switch (Stores.kind(h, "destination.type")) {
      case "file" -> {
        DirectoryConfig d = Stores.directory(h, "destination", "copy into", "/mnt/nfs/migrated");
        boolean direct = h.bool("destination.direct-io");
        yield d == null ? null : d.withWrites(direct ? DirectoryConfig.Writes.DIRECT : DirectoryConfig.Writes.PAGE_CACHE);
      }
      case "s3" -> {
        if (serverSideCopy == DestinationConfig.ServerSideCopy.ALWAYS && !bucketSource) {
          h.problem("destination.server-side-copy", "always", "needs a bucket source; set it to auto or never for a file source");
        }
        yield Stores.bucket(h, "destination", "copy into", "media-archive-copy", writes(h));
      }
      default -> null;
    };
    CutOver cutOver = cutOver(h, store);
    return store == null || serverSideCopy == null || cutOver == null ? null : new DestinationConfig(store, serverSideCopy, cutOver);
  }

  private static CutOver cutOver(Hocon h, StoreConfig store) {
    boolean enabled = h.bool("destination.delete-extraneous");
    String cap = h.string("destination.max-delete");
    String moveTo = h.string("destination.delete-to").trim();
    if (!moveTo.isEmpty()) {
      if (store instanceof DirectoryConfig) {
        moveTo = Path.of(moveTo).toAbsolutePath().normalize().toString();
      } else if (moveTo.startsWith("/")) {
        h.problem("destination.delete-to", moveTo,
            "must be a key prefix of the destination bucket, such as \"deleted/\", without a leading '/'");
      } else {
        moveTo = Stores.folder(moveTo);
      }
    }
    try {
      return CutOver.of(enabled, cap, moveTo);
    } catch (IllegalArgumentException e) {
      h.problem("destination.max-delete", cap, "must be a count (e.g. 1000) or a percentage of the destination's objects in the"
          + " selection (e.g. \"50%\"; \"100%\" for no cap)");
      return null;
    }
  }

  private static ObjectWrites writes(Hocon h) {
    String sse = h.string("destination.server-side-encryption");
    if (!List.of("", "AES256", "aws:kms").contains(sse)) {
      h.problem("destination.server-side-encryption", sse, "must be empty (the bucket's default), AES256 or aws:kms");
    }
    String acl = h.string("destination.acl").trim();
    if (!acl.isEmpty() && !ObjectWrites.CANNED_ACLS.contains(acl) && !acl.equals(ObjectWrites.COPY)) {
      h.problem("destination.acl", acl, "must be empty (none: the bucket's rules), copy (each object's grants at the source) or a"
          + " canned ACL: " + String.join(", ", ObjectWrites.CANNED_ACLS) + " (bucket-owner-full-control for a bucket of another"
          + " account)");
    }
    return new ObjectWrites(h.string("destination.storage-class").trim(), sse, h.string("destination.kms-key-id"),
        h.strings("destination.tags", "an object of tag names and values, e.g. tags { project = \"archive\" }"),
        h.bool("destination.copy-tags"), acl);
  }
}
