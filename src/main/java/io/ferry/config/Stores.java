package io.ferry.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** What the source and destination sections share: a store's kind, a bucket and its endpoint, key prefixes. */
final class Stores {
  private Stores() {}

  /** s3 or file; anything else is a problem (then ""). */
  static String kind(Hocon h, String key) {
    String type = h.string(key);
    if (type.equals("s3") || type.equals("file")) return type;
    h.problem(key, type, "must be s3 (an S3-compatible bucket) or file (a local, NFS or block-volume directory)");
    return "";
  }

  /** The directory at {@code side.path}, or null after a problem naming what to set. */
  static DirectoryConfig directory(Hocon h, String side, String verb, String example) {
    String path = h.string(side + ".path");
    if (!path.isBlank()) return DirectoryConfig.of(path);
    h.problem("ferry." + side + ".path is not set: name the directory to " + verb + ", e.g. " + side + ".path = \"" + example + "\"");
    return null;
  }

  static BucketConfig bucket(Hocon h, String side, String verb, String example, ObjectWrites writes) {
    String bucket = h.string(side + ".bucket");
    String prefix = folder(h.string(side + ".prefix"));
    S3EndpointConfig endpoint = endpoint(h, side);
    if (bucket.isBlank()) {
      h.problem("ferry." + side + ".bucket is not set: name the bucket to " + verb + ", e.g. " + side + ".bucket = \"" + example + "\"");
    }
    if (prefix.startsWith("/")) h.problem(side + ".prefix", prefix, "must not start with '/' (keys have no leading slash)");
    return endpoint == null || writes == null ? null : new BucketConfig(endpoint, bucket, prefix, writes);
  }

  private static S3EndpointConfig endpoint(Hocon h, String side) {
    String endpoint = h.string(side + ".endpoint");
    if (!endpoint.isEmpty() && !endpoint.matches("https?://[^/\\s]+(/.*)?")) {
      h.problem(side + ".endpoint", endpoint, "must be an http:// or https:// URL, or empty for AWS S3");
    }
    String region = h.string(side + ".region");
    if (region.isBlank()) h.problem(side + ".region", region, "must name the region, e.g. us-east-1 or jp-tok");
    boolean pathStyle = h.bool(side + ".path-style");
    S3EndpointConfig.CredentialsType credentialsType = h.enumValue(side + ".credentials.type", S3EndpointConfig.CredentialsType.class);
    String keyId = h.string(side + ".credentials.access-key-id");
    Secret secret = h.secret(side + ".credentials.secret-access-key");
    Secret apiKey = h.secret(side + ".credentials.api-key");
    Secret sessionToken = h.secret(side + ".credentials.session-token");
    if (!sessionToken.isEmpty() && credentialsType != null && credentialsType != S3EndpointConfig.CredentialsType.STATIC) {
      h.problem(side + ".credentials.session-token", "(set)", "goes with temporary static keys (credentials.type = static); the"
          + " default chain finds a session's token itself");
    }
    String tokenUrl = h.string(side + ".credentials.token-url");
    String env = side.equals("source") ? "SRC" : "DST";
    if (credentialsType == S3EndpointConfig.CredentialsType.STATIC) {
      if (keyId.isBlank()) {
        h.problem("ferry." + side + ".credentials.access-key-id is empty: set it, e.g. access-key-id = ${?" + env
            + "_ACCESS_KEY_ID}, or set credentials.type = default-chain to use the AWS SDK's credential chain");
      }
      if (secret.isEmpty()) {
        h.problem("ferry." + side + ".credentials.secret-access-key is empty: set it, e.g. secret-access-key = ${?" + env
            + "_SECRET_ACCESS_KEY} (never write the secret itself in the file), or set credentials.type = default-chain");
      }
    } else if (credentialsType == S3EndpointConfig.CredentialsType.IBM_IAM) {
      if (apiKey.isEmpty()) {
        h.problem("ferry." + side + ".credentials.api-key is empty: credentials.type = ibm-iam needs an IBM Cloud API key,"
            + " e.g. api-key = ${?" + env + "_IBM_API_KEY}");
      }
      if (!tokenUrl.matches("https://\\S+") && !loopbackHttp(tokenUrl)) {
        h.problem(side + ".credentials.token-url", tokenUrl, "must be an https:// URL: the API key is sent to it (plain http only to"
            + " this host's loopback address, e.g. a local token proxy)");
      }
    }
    S3EndpointConfig.Role role = role(h, side, credentialsType, keyId, secret);
    S3EndpointConfig.ChecksumMode checksumMode = h.enumValue(side + ".checksum-mode", S3EndpointConfig.ChecksumMode.class);
    boolean unsignedPayload = h.bool(side + ".unsigned-payload");
    String caBundle = h.string(side + ".ca-bundle");
    if (!caBundle.isEmpty()) {
      Path bundle = Path.of(caBundle).toAbsolutePath().normalize();
      if (!Files.isReadable(bundle)) {
        h.problem(side + ".ca-bundle", caBundle, "is not a readable file: name a PEM file of the CA certificates that signed the"
            + " endpoint's certificate, or leave it empty to trust the system's CAs");
      }
      caBundle = bundle.toString();
    }
    if (credentialsType == null || checksumMode == null) return null;
    return new S3EndpointConfig(endpoint, region, pathStyle,
        new S3EndpointConfig.Credentials(credentialsType, keyId, secret, apiKey, tokenUrl, sessionToken, role), checksumMode,
        unsignedPayload, caBundle, side.equals("source") && h.bool("source.requester-pays"));
  }

  /** The role of {@code credentials.type = assume-role} (none for the other types), its mistakes as problems. */
  private static S3EndpointConfig.Role role(Hocon h, String side, S3EndpointConfig.CredentialsType type, String keyId, Secret secret) {
    String p = side + ".credentials.";
    String arn = h.string(p + "role-arn");
    Secret externalId = h.secret(p + "external-id");
    String session = h.string(p + "session-name");
    Duration duration = h.duration(p + "duration");
    String sts = h.string(p + "sts-endpoint");
    if (type != S3EndpointConfig.CredentialsType.ASSUME_ROLE) {
      if (!arn.isEmpty()) h.problem(p + "role-arn", arn, "is assumed only with credentials.type = assume-role");
      if (!externalId.isEmpty()) h.problem(p + "external-id", "(set)", "goes with credentials.type = assume-role");
      return S3EndpointConfig.Role.NONE;
    }
    if (!arn.matches("arn:[^:\\s]+:iam::[^:\\s]*:role/\\S+")) {
      h.problem(p + "role-arn", arn, "must be a role's ARN, e.g. arn:aws:iam::123456789012:role/migration");
    }
    if (!session.matches("[\\w+=,.@-]{2,64}")) {
      h.problem(p + "session-name", session, "must be 2 to 64 letters, digits or +=,.@_- (STS's rule)");
    }
    if (duration != null && (duration.compareTo(Duration.ofMinutes(15)) < 0
        || duration.compareTo(Duration.ofHours(12)) > 0)) {
      h.problem(p + "duration", duration, "must be from 15m to 12h (STS's bounds; the role's own maximum may be lower)");
    }
    if (!sts.isEmpty() && !sts.matches("https://\\S+") && !loopbackHttp(sts)) {
      h.problem(p + "sts-endpoint", sts, "must be an https:// URL (plain http only to this host's loopback address), or empty for AWS"
          + " STS in the region");
    }
    if (!keyId.isBlank() && secret.isEmpty()) {
      h.problem("ferry." + side + ".credentials.secret-access-key is empty: the role is assumed as the keys given (access-key-id is"
          + " set); set it, or empty access-key-id to assume the role as the SDK's default chain");
    }
    return new S3EndpointConfig.Role(arn, externalId, session, duration == null ? Duration.ofHours(1) : duration, sts);
  }

  /** http to 127.0.0.1, [::1] or localhost: the request never leaves the host. */
  static boolean loopbackHttp(String url) {
    return url.matches("http://(127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|\\[::1\\]|localhost)(:\\d+)?(/\\S*)?");
  }

  /** The folders not inside another of them, sorted: a key under two of them is listed once. */
  static List<String> outermost(List<String> folders) {
    List<String> sorted = new ArrayList<>(new TreeSet<>(folders));
    List<String> kept = new ArrayList<>();
    for (String f : sorted) if (kept.isEmpty() || !f.startsWith(kept.get(kept.size() - 1))) kept.add(f);
    return kept;
  }

  /** A prefix names a folder, as rclone and the AWS CLI take it: "2018" and "2018/" are both the folder "2018/". */
  static String folder(String prefix) {
    return prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
  }
}
