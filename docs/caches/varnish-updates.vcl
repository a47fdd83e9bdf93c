# Varnish in front of the update files (docs/operating.md, "Purging the caches"). It caches as the app's
# Cache-Control says (Varnish's built-in VCL does the rest), and takes the app's purge: a BAN whose
# Surrogate-Key header names the tags to drop (updates:<channel>), from the addresses of `purgers` only.
# Set the backend to your app and the ACL to the addresses your instances purge from.
vcl 4.1;

import std;

backend default {
    .host = "127.0.0.1";
    .port = "8080";
}

# Who may purge: the app's instances. A BAN from any other address is refused with 403.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "BAN") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        # Tags of letters, digits, ":", "_" and "-", separated by spaces: nothing a regular expression reads.
        if (req.http.Surrogate-Key !~ "^[A-Za-z0-9:_-]+( [A-Za-z0-9:_-]+)*$") {
            return (synth(400, "Surrogate-Key must name the tags to ban, separated by spaces"));
        }
        # On obj.http only, so the ban lurker drops banned objects in the background too.
        if (std.ban("obj.http.Surrogate-Key ~ (^|[[:space:]])(" + regsuball(req.http.Surrogate-Key, " ", "|") + ")([[:space:]]|$)")) {
            return (synth(200, "Banned"));
        }
        return (synth(400, std.ban_error()));
    }
}

# The answer to a BAN is its reason as plain text, for the purge's log line.
sub vcl_synth {
    if (req.method == "BAN") {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        synthetic(resp.reason);
        return (deliver);
    }
}
