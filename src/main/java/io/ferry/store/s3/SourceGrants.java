package io.ferry.store.s3;

import io.ferry.store.ObjectMetadata;
import io.ferry.store.StoreFailure;
import io.ferry.store.StoreObject;
import io.ferry.store.s3.http.S3Errors;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.RequestPayer;

/**
 * A source object's ACL ({@code destination.acl = copy}), read with GetObjectAcl and given to the write that makes its
 * copy as grant headers ({@code x-amz-grant-read: id="…", uri="…"}), so the copy never stands at its name with
 * other grants. Every grant is copied, its owner's FULL_CONTROL too: into another account's bucket the source's owner
 * keeps control of the copy, which is what copying the ACL means.
 */
final class SourceGrants {
  private final S3Client client;
  private final String bucket;
  private final boolean requesterPays;

  SourceGrants(S3Client client, String bucket, boolean requesterPays) {
    this.client = client;
    this.bucket = bucket;
    this.requesterPays = requesterPays;
  }

  /** The grant headers of {@code object} (of its version, where it is one); empty where it grants nothing. */
  Map<String, String> of(StoreObject object) throws IOException {
    return S3Errors.translated(() -> headers(client.getObjectAcl(b -> {
      b.bucket(bucket).key(object.key()).versionId(object.versionId().isEmpty() ? null : object.versionId());
      if (requesterPays) b.requestPayer(RequestPayer.REQUESTER);
    }).grants()), e -> {
      if (S3Errors.status(e, 403)) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, "reading the source object's ACL was refused (" + S3Errors.describe(e)
            + "): allow s3:GetObjectAcl, or set ferry.destination.acl to a canned ACL", e);
      }
      if (S3Errors.status(e, 501) || S3Errors.status(e, 400) && S3Errors.hasCode(e, "NotImplemented")) {
        throw new StoreFailure(StoreFailure.Kind.FATAL, "the source keeps no ACLs (" + S3Errors.describe(e)
            + "): destination.acl = copy needs a source that has them; set a canned ACL instead", e);
      }
      return Optional.empty();
    });
  }

  /** Grants as the headers of a write: one per permission, its grantees comma-separated. */
  static Map<String, String> headers(Iterable<Grant> grants) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Grant g : grants) {
      String header = switch (g.permissionAsString() == null ? "" : g.permissionAsString().toUpperCase(Locale.ROOT)) {
        case "READ" -> ObjectMetadata.GRANT_READ;
        case "READ_ACP" -> ObjectMetadata.GRANT_READ_ACP;
        case "WRITE_ACP" -> ObjectMetadata.GRANT_WRITE_ACP;
        case "FULL_CONTROL" -> ObjectMetadata.GRANT_FULL_CONTROL;
        default -> null; // WRITE means nothing on an object
      };
      String grantee = grantee(g.grantee());
      if (header == null || grantee == null) continue;
      headers.merge(header, grantee, (a, b) -> a + ", " + b);
    }
    return headers;
  }

  private static String grantee(Grantee g) {
    if (g == null) return null;
    if (g.id() != null) return "id=\"" + g.id() + "\"";
    if (g.uri() != null) return "uri=\"" + g.uri() + "\"";
    if (g.emailAddress() != null) return "emailAddress=\"" + g.emailAddress() + "\"";
    return null;
  }
}
