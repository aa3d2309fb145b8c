// libxcrypt's crypt_r (Debian's libcrypt1, libcrypt-dev): checks the bcrypt hashes of
// --web-config-file's basic_auth_users, as the Prometheus exporter toolkit does.
#include <crypt.h>
