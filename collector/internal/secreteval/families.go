package secreteval

import (
	"encoding/base64"
	"strings"
)

// Kind says how a family's secret can be recognised.
type Kind int

const (
	// Token secrets carry their provider's format (a prefix, a shape): they
	// are found wherever they appear, whatever the name around them.
	Token Kind = iota
	// Keyed secrets have no format of their own (hex, UUIDs, base64): they
	// are found by the secret-looking name they are assigned to.
	Keyed
	// Password secrets are human-made and assigned to password names.
	Password
)

// Family is one kind of credential.
type Family struct {
	ID   string
	Kind Kind
	// Env is the conventional variable name the secret is assigned to.
	Env string
	Gen func(g gen) string
	// Wrap, when set, is the text planted around the secret (a webhook URL,
	// a connection string); the secret alone is what must not leak.
	Wrap func(secret string) string
}

func tok(id, env string, f func(g gen) string) Family {
	return Family{ID: id, Kind: Token, Env: env, Gen: f}
}
func keyed(id, env string, f func(g gen) string) Family {
	return Family{ID: id, Kind: Keyed, Env: env, Gen: f}
}

// wrapped is a family whose secret is planted inside a larger text.
func wrapped(f Family, wrap func(string) string) Family { f.Wrap = wrap; return f }

// Families are the generated credential families, from the formats the
// providers document.
var Families = []Family{
	// Cloud.
	tok("aws-access-key-id", "AWS_ACCESS_KEY_ID", func(g gen) string { return "AKIA" + g.mixed(16, b32) }),
	tok("aws-sts-key-id", "AWS_ACCESS_KEY_ID", func(g gen) string { return "ASIA" + g.mixed(16, b32) }),
	keyed("aws-secret-access-key", "AWS_SECRET_ACCESS_KEY", func(g gen) string { return g.mixed(40, b64) }),
	keyed("aws-session-token", "AWS_SESSION_TOKEN", func(g gen) string { return "IQoJb3JpZ2luX2Vj" + g.mixed(200, b64) }),
	tok("gcp-api-key", "GOOGLE_API_KEY", func(g gen) string { return "AIza" + g.mixed(35, b64url) }),
	tok("gcp-oauth-client-secret", "GOOGLE_CLIENT_SECRET", func(g gen) string { return "GOCSPX-" + g.mixed(28, b64url) }),
	tok("google-oauth-access-token", "GOOGLE_ACCESS_TOKEN", func(g gen) string { return "ya29.a0" + g.mixed(120, b64url) }),
	tok("firebase-fcm-server-key", "FCM_SERVER_KEY", func(g gen) string { return "AAAA" + g.mixed(7, b64url) + ":APA91b" + g.mixed(134, b64url) }),
	tok("azure-ad-client-secret", "AZURE_CLIENT_SECRET", func(g gen) string { return g.mixed(3, alnum) + g.num(1) + "Q~" + g.mixed(34, alnum+"_~.") }),
	keyed("azure-storage-key", "AZURE_STORAGE_KEY", func(g gen) string { return g.mixed(86, b64) + "==" }),
	wrapped(tok("azure-connection-string", "AZURE_STORAGE_CONNECTION_STRING", func(g gen) string { return g.mixed(86, b64) + "==" }),
		func(s string) string {
			return "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + s + ";EndpointSuffix=core.windows.net"
		}),
	wrapped(tok("azure-sas-url", "AZURE_SAS_URL", func(g gen) string { return g.mixed(43, alnum) + "%3D" }),
		func(s string) string {
			return "https://acme.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=" + s
		}),
	keyed("azure-devops-pat", "AZURE_DEVOPS_PAT", func(g gen) string { return g.mixed(52, "abcdefghijklmnopqrstuvwxyz234567") }),
	keyed("azure-openai-key", "AZURE_OPENAI_API_KEY", func(g gen) string { return g.hex(32) }),
	tok("digitalocean-pat", "DIGITALOCEAN_TOKEN", func(g gen) string { return "dop_v1_" + g.hex(64) }),
	tok("digitalocean-oauth", "DO_OAUTH_TOKEN", func(g gen) string { return "doo_v1_" + g.hex(64) }),
	tok("alibaba-access-key-id", "ALIBABA_ACCESS_KEY_ID", func(g gen) string { return "LTAI" + g.mixed(20, alnum) }),
	keyed("alibaba-secret", "ALIBABA_ACCESS_KEY_SECRET", func(g gen) string { return g.mixed(30, alnum) }),
	tok("heroku-api-key-v2", "HEROKU_API_KEY", func(g gen) string { return "HRKU-AA" + g.mixed(58, b64url) }),
	keyed("heroku-api-key", "HEROKU_API_KEY", func(g gen) string { return g.uuid() }),
	tok("cloudflare-origin-ca", "CF_ORIGIN_CA_KEY", func(g gen) string { return "v1.0-" + g.hex(24) + "-" + g.hex(146) }),
	keyed("cloudflare-api-token", "CLOUDFLARE_API_TOKEN", func(g gen) string { return g.mixed(40, b64url) }),
	tok("flyio-token", "FLY_API_TOKEN", func(g gen) string { return "fo1_" + g.mixed(43, b64url) }),
	tok("netlify-token", "NETLIFY_AUTH_TOKEN", func(g gen) string { return "nfp_" + g.mixed(36, alnum) }),
	tok("doppler-token", "DOPPLER_TOKEN", func(g gen) string { return "dp.st." + g.mixed(43, alnum) }),
	tok("vault-token", "VAULT_TOKEN", func(g gen) string { return "hvs." + g.mixed(90, b64url) }),
	tok("terraform-cloud-token", "TFE_TOKEN", func(g gen) string {
		return g.mixed(14, lower+digits) + ".atlasv1." + g.mixed(67, alnum)
	}),
	tok("pulumi-token", "PULUMI_ACCESS_TOKEN", func(g gen) string { return "pul-" + g.hex(40) }),
	tok("render-key", "RENDER_API_KEY", func(g gen) string { return "rnd_" + g.mixed(32, alnum) }),
	tok("supabase-token", "SUPABASE_ACCESS_TOKEN", func(g gen) string { return "sbp_" + g.hex(40) }),
	tok("planetscale-token", "PLANETSCALE_TOKEN", func(g gen) string { return "pscale_tkn_" + g.mixed(43, alnum) }),
	tok("databricks-token", "DATABRICKS_TOKEN", func(g gen) string { return "dapi" + g.hex(32) }),
	tok("grafana-cloud-token", "GRAFANA_CLOUD_TOKEN", func(g gen) string { return "glc_" + g.mixed(64, alnum) }),
	tok("grafana-service-account", "GRAFANA_SA_TOKEN", func(g gen) string { return "glsa_" + g.mixed(32, alnum) + "_" + g.hex(8) }),
	tok("new-relic-user-key", "NEW_RELIC_API_KEY", func(g gen) string { return "NRAK-" + g.mixed(27, upper+digits) }),
	keyed("new-relic-license-key", "NEW_RELIC_LICENSE_KEY", func(g gen) string { return g.hex(36) + "NRAL" }),
	keyed("datadog-api-key", "DD_API_KEY", func(g gen) string { return g.hex(32) }),
	keyed("datadog-app-key", "DD_APP_KEY", func(g gen) string { return g.hex(40) }),
	tok("sentry-org-token", "SENTRY_AUTH_TOKEN", func(g gen) string { return "sntrys_eyJpYXQiOjE3" + g.mixed(80, alnum) }),
	tok("sentry-user-token", "SENTRY_AUTH_TOKEN", func(g gen) string { return "sntryu_" + g.hex(64) }),
	tok("dynatrace-token", "DT_API_TOKEN", func(g gen) string { return "dt0c01." + g.mixed(24, upper+digits) + "." + g.mixed(64, upper+digits) }),
	tok("tailscale-key", "TS_AUTHKEY", func(g gen) string { return "tskey-auth-" + g.mixed(12, alnum) + "-" + g.mixed(32, alnum) }),
	tok("yandex-api-key", "YC_API_KEY", func(g gen) string { return "AQVN" + g.mixed(36, b64url) }),
	tok("octopus-deploy-key", "OCTOPUS_API_KEY", func(g gen) string { return "API-" + g.mixed(26, upper+digits) }),
	tok("onepassword-service-token", "OP_SERVICE_ACCOUNT_TOKEN", func(g gen) string { return "ops_eyJzaWduSW5BZGRyZXNz" + g.mixed(200, alnum) }),
	keyed("linode-token", "LINODE_TOKEN", func(g gen) string { return g.hex(64) }),
	keyed("vultr-api-key", "VULTR_API_KEY", func(g gen) string { return g.mixed(36, upper+digits) }),
	keyed("okta-api-token", "OKTA_API_TOKEN", func(g gen) string { return "00" + g.mixed(40, b64url) }),
	keyed("auth0-client-secret", "AUTH0_CLIENT_SECRET", func(g gen) string { return g.mixed(64, b64url) }),

	// Source control, CI, registries.
	tok("github-pat", "GITHUB_TOKEN", func(g gen) string { return "ghp_" + g.mixed(36, alnum) }),
	tok("github-oauth", "GH_OAUTH_TOKEN", func(g gen) string { return "gho_" + g.mixed(36, alnum) }),
	tok("github-app-user", "GH_USER_TOKEN", func(g gen) string { return "ghu_" + g.mixed(36, alnum) }),
	tok("github-app-server", "GH_APP_TOKEN", func(g gen) string { return "ghs_" + g.mixed(36, alnum) }),
	tok("github-refresh", "GH_REFRESH_TOKEN", func(g gen) string { return "ghr_" + g.mixed(76, alnum) }),
	tok("github-fine-grained", "GITHUB_PAT", func(g gen) string { return "github_pat_11" + g.mixed(20, upper+digits) + "_" + g.mixed(59, alnum) }),
	tok("gitlab-pat", "GITLAB_TOKEN", func(g gen) string { return "glpat-" + g.mixed(20, b64url) }),
	tok("gitlab-deploy-token", "GITLAB_DEPLOY_TOKEN", func(g gen) string { return "gldt-" + g.mixed(20, b64url) }),
	tok("gitlab-runner-token", "CI_RUNNER_TOKEN", func(g gen) string { return "glrt-" + g.mixed(20, b64url) }),
	tok("gitlab-ci-build-token", "CI_JOB_TOKEN", func(g gen) string { return "glcbt-" + g.hex(2) + "_" + g.mixed(20, b64url) }),
	tok("gitlab-trigger-token", "TRIGGER_TOKEN", func(g gen) string { return "glptt-" + g.hex(40) }),
	tok("gitlab-feed-token", "GITLAB_FEED_TOKEN", func(g gen) string { return "glft-" + g.mixed(20, b64url) }),
	tok("gitlab-oauth-secret", "GITLAB_OAUTH_SECRET", func(g gen) string { return "gloas-" + g.hex(64) }),
	tok("gitlab-runner-registration", "RUNNER_REGISTRATION_TOKEN", func(g gen) string { return "GR1348941" + g.mixed(20, b64url) }),
	tok("bitbucket-app-password", "BITBUCKET_APP_PASSWORD", func(g gen) string { return "ATBB" + g.mixed(32, alnum) }),
	tok("atlassian-api-token", "JIRA_API_TOKEN", func(g gen) string { return "ATATT3xFfGF0" + g.mixed(180, b64url) }),
	tok("circleci-pat", "CIRCLE_TOKEN", func(g gen) string { return "CCIPAT_" + g.mixed(22, alnum) + "_" + g.hex(40) }),
	tok("buildkite-token", "BUILDKITE_API_TOKEN", func(g gen) string { return "bkua_" + g.hex(40) }),
	keyed("travis-token", "TRAVIS_TOKEN", func(g gen) string { return g.mixed(22, alnum) }),
	tok("sourcegraph-token", "SRC_ACCESS_TOKEN", func(g gen) string { return "sgp_" + g.hex(16) + "_" + g.hex(40) }),
	tok("sonarqube-token", "SONAR_TOKEN", func(g gen) string { return "squ_" + g.hex(40) }),
	keyed("snyk-token", "SNYK_TOKEN", func(g gen) string { return g.uuid() }),
	keyed("codecov-token", "CODECOV_TOKEN", func(g gen) string { return g.uuid() }),
	tok("npm-token", "NPM_TOKEN", func(g gen) string { return "npm_" + g.mixed(36, alnum) }),
	tok("pypi-token", "PYPI_API_TOKEN", func(g gen) string { return "pypi-AgEIcHlwaS5vcmc" + g.mixed(70, b64url) }),
	tok("rubygems-key", "GEM_HOST_API_KEY", func(g gen) string { return "rubygems_" + g.hex(48) }),
	tok("nuget-key", "NUGET_API_KEY", func(g gen) string { return "oy2" + g.mixed(43, lower+digits) }),
	tok("docker-hub-pat", "DOCKERHUB_TOKEN", func(g gen) string { return "dckr_pat_" + g.mixed(27, b64url) }),
	tok("jfrog-reference-token", "JFROG_ACCESS_TOKEN", func(g gen) string { return "cmVmdGtuOjAxOj" + g.mixed(50, alnum) }),
	tok("postman-key", "POSTMAN_API_KEY", func(g gen) string { return "PMAK-" + g.hex(24) + "-" + g.hex(34) }),
	tok("prefect-key", "PREFECT_API_KEY", func(g gen) string { return "pnu_" + g.mixed(36, alnum) }),
	tok("clojars-token", "CLOJARS_TOKEN", func(g gen) string { return "CLOJARS_" + g.mixed(60, lower+digits) }),

	// Chat, collaboration, webhooks.
	tok("slack-bot-token", "SLACK_BOT_TOKEN", func(g gen) string { return "xoxb-" + g.num(12) + "-" + g.num(13) + "-" + g.mixed(24, alnum) }),
	tok("slack-user-token", "SLACK_USER_TOKEN", func(g gen) string { return "xoxp-" + g.num(12) + "-" + g.num(12) + "-" + g.num(13) + "-" + g.hex(32) }),
	tok("slack-app-token", "SLACK_APP_TOKEN", func(g gen) string { return "xapp-1-A" + g.mixed(10, upper+digits) + "-" + g.num(13) + "-" + g.hex(64) }),
	wrapped(tok("slack-webhook", "SLACK_WEBHOOK_URL", func(g gen) string {
		return "T" + g.mixed(8, upper+digits) + "/B" + g.mixed(10, upper+digits) + "/" + g.mixed(24, alnum)
	}), func(s string) string { return "https://hooks.slack.com/services/" + s }),
	wrapped(tok("slack-workflow-webhook", "SLACK_WORKFLOW_URL", func(g gen) string {
		return "T" + g.mixed(8, upper+digits) + "/A" + g.mixed(10, upper+digits) + "/" + g.num(18) + "/" + g.mixed(24, alnum)
	}), func(s string) string { return "https://hooks.slack.com/workflows/" + s }),
	wrapped(tok("discord-webhook", "DISCORD_WEBHOOK_URL", func(g gen) string {
		return g.num(18) + "/" + g.mixed(68, b64url)
	}), func(s string) string { return "https://discord.com/api/webhooks/" + s }),
	tok("discord-bot-token", "DISCORD_TOKEN", func(g gen) string {
		return strings.TrimRight(base64.StdEncoding.EncodeToString([]byte(g.num(18))), "=") + "." + g.mixed(6, b64url) + "." + g.mixed(38, b64url)
	}),
	wrapped(tok("teams-webhook", "TEAMS_WEBHOOK_URL", func(g gen) string {
		return g.uuid() + "@" + g.uuid() + "/IncomingWebhook/" + g.hex(32) + "/" + g.uuid()
	}), func(s string) string { return "https://contoso.webhook.office.com/webhookb2/" + s }),
	tok("telegram-bot-token", "TELEGRAM_BOT_TOKEN", func(g gen) string { return g.num(10) + ":AA" + g.mixed(33, b64url) }),
	tok("linear-key", "LINEAR_API_KEY", func(g gen) string { return "lin_api_" + g.mixed(40, alnum) }),
	tok("notion-token", "NOTION_TOKEN", func(g gen) string { return "ntn_" + g.num(11) + g.mixed(35, alnum) }),
	tok("notion-legacy-secret", "NOTION_API_KEY", func(g gen) string { return "secret_" + g.mixed(43, alnum) }),
	tok("airtable-pat", "AIRTABLE_TOKEN", func(g gen) string { return "pat" + g.mixed(14, alnum) + "." + g.hex(64) }),
	tok("figma-token", "FIGMA_TOKEN", func(g gen) string { return "figd_" + g.mixed(40, b64url) }),
	tok("dropbox-token", "DROPBOX_ACCESS_TOKEN", func(g gen) string { return "sl." + g.mixed(138, b64url) }),
	tok("hubspot-pat", "HUBSPOT_ACCESS_TOKEN", func(g gen) string { return "pat-na1-" + g.uuid() }),
	tok("intercom-token", "INTERCOM_ACCESS_TOKEN", func(g gen) string { return "dG9rOj" + g.mixed(54, alnum) + "=" }),
	tok("typeform-token", "TYPEFORM_TOKEN", func(g gen) string { return "tfp_" + g.mixed(59, alnum) }),
	tok("contentful-pat", "CONTENTFUL_MANAGEMENT_TOKEN", func(g gen) string { return "CFPAT-" + g.mixed(43, b64url) }),
	tok("mapbox-secret-token", "MAPBOX_SECRET_TOKEN", func(g gen) string { return "sk.eyJ1Ijoi" + g.mixed(60, alnum) + "." + g.mixed(22, b64url) }),
	tok("twitter-bearer", "TWITTER_BEARER_TOKEN", func(g gen) string { return "AAAAAAAAAAAAAAAAAAAAA" + g.mixed(80, alnum) }),
	tok("facebook-token", "FB_ACCESS_TOKEN", func(g gen) string { return "EAAB" + g.mixed(150, alnum) }),
	keyed("zendesk-token", "ZENDESK_API_TOKEN", func(g gen) string { return g.mixed(40, alnum) }),
	keyed("pagerduty-key", "PAGERDUTY_API_KEY", func(g gen) string { return "u+" + g.mixed(18, b64url) }),
	keyed("algolia-admin-key", "ALGOLIA_ADMIN_KEY", func(g gen) string { return g.hex(32) }),
	keyed("mailjet-secret", "MAILJET_SECRET_KEY", func(g gen) string { return g.hex(32) }),
	keyed("postmark-token", "POSTMARK_SERVER_TOKEN", func(g gen) string { return g.uuid() }),

	// Payment and commerce.
	tok("stripe-secret-key", "STRIPE_SECRET_KEY", func(g gen) string { return "sk_live_" + g.mixed(99, alnum) }),
	tok("stripe-test-key", "STRIPE_TEST_KEY", func(g gen) string { return "sk_test_" + g.mixed(24, alnum) }),
	tok("stripe-restricted-key", "STRIPE_RESTRICTED_KEY", func(g gen) string { return "rk_live_" + g.mixed(24, alnum) }),
	tok("stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET", func(g gen) string { return "whsec_" + g.mixed(32, alnum) }),
	tok("braintree-token", "BRAINTREE_ACCESS_TOKEN", func(g gen) string { return "access_token$production$" + g.mixed(16, lower+digits) + "$" + g.hex(32) }),
	tok("shopify-access-token", "SHOPIFY_ACCESS_TOKEN", func(g gen) string { return "shpat_" + g.hex(32) }),
	tok("shopify-shared-secret", "SHOPIFY_SHARED_SECRET", func(g gen) string { return "shpss_" + g.hex(32) }),
	tok("square-access-token", "SQUARE_ACCESS_TOKEN", func(g gen) string { return "sq0atp-" + g.mixed(22, b64url) }),
	tok("flutterwave-secret", "FLW_SECRET_KEY", func(g gen) string { return "FLWSECK_TEST-" + g.mixed(32, "abcdefgh0123456789") + "-X" }),
	tok("plaid-access-token", "PLAID_ACCESS_TOKEN", func(g gen) string { return "access-production-" + g.uuid() }),
	keyed("plaid-secret", "PLAID_SECRET", func(g gen) string { return g.hex(30) }),
	tok("shippo-token", "SHIPPO_API_TOKEN", func(g gen) string { return "shippo_live_" + g.hex(40) }),
	tok("easypost-key", "EASYPOST_API_KEY", func(g gen) string { return "EZAK" + g.mixed(54, alnum) }),
	tok("duffel-token", "DUFFEL_ACCESS_TOKEN", func(g gen) string { return "duffel_live_" + g.mixed(43, b64url) }),
	keyed("paypal-client-secret", "PAYPAL_CLIENT_SECRET", func(g gen) string { return "E" + g.mixed(79, b64url) }),
	keyed("razorpay-secret", "RAZORPAY_KEY_SECRET", func(g gen) string { return g.mixed(24, alnum) }),
	keyed("coinbase-secret", "COINBASE_API_SECRET", func(g gen) string { return g.mixed(32, alnum) }),

	// E-mail and messaging.
	tok("twilio-api-key", "TWILIO_API_KEY", func(g gen) string { return "SK" + g.hex(32) }),
	keyed("twilio-auth-token", "TWILIO_AUTH_TOKEN", func(g gen) string { return g.hex(32) }),
	tok("sendgrid-key", "SENDGRID_API_KEY", func(g gen) string { return "SG." + g.mixed(22, b64url) + "." + g.mixed(43, b64url) }),
	tok("mailgun-key", "MAILGUN_API_KEY", func(g gen) string { return "key-" + g.hex(32) }),
	tok("mailchimp-key", "MAILCHIMP_API_KEY", func(g gen) string { return g.hex(32) + "-us" + g.num(2) }),
	tok("brevo-key", "BREVO_API_KEY", func(g gen) string { return "xkeysib-" + g.hex(64) + "-" + g.mixed(16, alnum) }),
	keyed("vonage-secret", "VONAGE_API_SECRET", func(g gen) string { return g.mixed(16, alnum) }),

	// AI.
	tok("openai-project-key", "OPENAI_API_KEY", func(g gen) string { return "sk-proj-" + g.mixed(156, b64url) }),
	tok("openai-legacy-key", "OPENAI_API_KEY", func(g gen) string { return "sk-" + g.mixed(20, alnum) + "T3BlbkFJ" + g.mixed(20, alnum) }),
	tok("openai-service-key", "OPENAI_ADMIN_KEY", func(g gen) string { return "sk-svcacct-" + g.mixed(74, b64url) }),
	tok("anthropic-key", "ANTHROPIC_API_KEY", func(g gen) string { return "sk-ant-api03-" + g.mixed(93, b64url) + "AA" }),
	tok("anthropic-admin-key", "ANTHROPIC_ADMIN_KEY", func(g gen) string { return "sk-ant-admin01-" + g.mixed(93, b64url) + "AA" }),
	tok("huggingface-token", "HF_TOKEN", func(g gen) string { return "hf_" + g.mixed(34, upper+lower) }),
	tok("huggingface-org-token", "HF_ORG_TOKEN", func(g gen) string { return "api_org_" + g.mixed(34, upper+lower) }),
	tok("replicate-token", "REPLICATE_API_TOKEN", func(g gen) string { return "r8_" + g.mixed(37, alnum) }),
	tok("groq-key", "GROQ_API_KEY", func(g gen) string { return "gsk_" + g.mixed(52, alnum) }),
	tok("perplexity-key", "PERPLEXITY_API_KEY", func(g gen) string { return "pplx-" + g.mixed(48, alnum) }),
	tok("xai-key", "XAI_API_KEY", func(g gen) string { return "xai-" + g.mixed(80, alnum) }),
	tok("openrouter-key", "OPENROUTER_API_KEY", func(g gen) string { return "sk-or-v1-" + g.hex(64) }),
	tok("langsmith-key", "LANGSMITH_API_KEY", func(g gen) string { return "lsv2_pt_" + g.hex(32) + "_" + g.hex(10) }),
	tok("pinecone-key", "PINECONE_API_KEY", func(g gen) string { return "pcsk_" + g.mixed(6, alnum) + "_" + g.mixed(64, alnum) }),
	keyed("cohere-key", "COHERE_API_KEY", func(g gen) string { return g.mixed(40, alnum) }),
	keyed("mistral-key", "MISTRAL_API_KEY", func(g gen) string { return g.mixed(32, alnum) }),
	keyed("wandb-key", "WANDB_API_KEY", func(g gen) string { return g.hex(40) }),
	tok("elevenlabs-key", "ELEVENLABS_API_KEY", func(g gen) string { return "sk_" + g.hex(48) }),

	// Tokens in any envelope, private keys outside PEM.
	tok("jwt", "SESSION_TOKEN", func(g gen) string { return g.jwt() }),
	tok("jwt-base64", "AUTH_BLOB", func(g gen) string { return base64.StdEncoding.EncodeToString([]byte(g.jwt())) }),
	tok("age-secret-key", "AGE_SECRET_KEY", func(g gen) string { return "AGE-SECRET-KEY-1" + g.s(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L") }),
	keyed("generic-api-key", "API_KEY", func(g gen) string { return g.mixed(32, alnum) }),
	keyed("generic-secret", "CLIENT_SECRET", func(g gen) string { return g.mixed(40, b64) }),
	keyed("generic-hex-token", "ACCESS_TOKEN", func(g gen) string { return g.hex(64) }),
	keyed("eth-private-key", "PRIVATE_KEY", func(g gen) string { return "0x" + g.hex(64) }),
	keyed("encryption-key", "ENCRYPTION_KEY", func(g gen) string { return g.b64(32) }),
	keyed("jwt-signing-secret", "JWT_SECRET", func(g gen) string { return g.mixed(48, alnum) }),
	keyed("django-secret-key", "SECRET_KEY", func(g gen) string { return g.mixed(50, alnum+"!@#%^&*(-_=+)") }),
	{ID: "password", Kind: Password, Env: "DB_PASSWORD", Gen: func(g gen) string { return g.password() }},
	{ID: "admin-password", Kind: Password, Env: "ADMIN_PASSWORD", Gen: func(g gen) string { return g.password() }},
	{ID: "smtp-password", Kind: Password, Env: "SMTP_PASS", Gen: func(g gen) string { return g.password() }},
}
