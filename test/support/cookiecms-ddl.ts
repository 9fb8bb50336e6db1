// CookieCMS's tables as its knex migrations make them on MySQL/MariaDB (Cookie-cms/cookiecms-js:
// migrations/cookiecms.init.js and perms.js), column for column, with its permission groups: the importer's test and
// benchmark build their source from it.
export const COOKIECMS_DDL = `
CREATE TABLE permissions_groups (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(255) NOT NULL,
  description text, level int NOT NULL, is_default tinyint(1) DEFAULT 0, created_at timestamp NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE cloaks_lib (uuid varchar(255) NOT NULL PRIMARY KEY, name varchar(255) NOT NULL);
CREATE TABLE hwids (id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, publickey varchar(255), hwDiskId varchar(255),
  baseboardSerialNumber varchar(255), graphicCard varchar(255), displayId varchar(255), bitness int, totalMemory bigint,
  logicalProcessors int, physicalProcessors int, processorMaxFreq bigint, battery tinyint(1) NOT NULL DEFAULT 0,
  banned tinyint(1) NOT NULL DEFAULT 0);
CREATE TABLE users (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, username varchar(255), dsid varchar(100),
  mail varchar(255), mail_verify int DEFAULT 0, uuid char(36), password varchar(255), perms int NOT NULL DEFAULT 1,
  accessToken varchar(32), serverID varchar(41), hwidId bigint unsigned,
  permission_group_id int unsigned NULL,
  FOREIGN KEY (hwidId) REFERENCES hwids (id) ON DELETE SET NULL,
  FOREIGN KEY (permission_group_id) REFERENCES permissions_groups (id) ON DELETE SET NULL);
CREATE TABLE skins_library (uuid varchar(255) NOT NULL PRIMARY KEY, name varchar(255) NOT NULL, ownerid int unsigned NOT NULL,
  slim tinyint(1) NOT NULL DEFAULT 0, hd tinyint(1) NOT NULL DEFAULT 0, disabled tinyint(1) NOT NULL DEFAULT 0,
  cloak_id varchar(256) NOT NULL DEFAULT '0', FOREIGN KEY (ownerid) REFERENCES users (id) ON DELETE CASCADE);
CREATE TABLE cloaks_users (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, uid int unsigned NOT NULL,
  cloak_id varchar(255) NOT NULL, FOREIGN KEY (uid) REFERENCES users (id) ON DELETE CASCADE,
  FOREIGN KEY (cloak_id) REFERENCES cloaks_lib (uuid) ON DELETE CASCADE);
CREATE TABLE skin_user (uid int unsigned NOT NULL, skin_id varchar(100) NOT NULL, UNIQUE KEY skin_user_uid_unique (uid),
  FOREIGN KEY (uid) REFERENCES users (id) ON DELETE CASCADE, FOREIGN KEY (skin_id) REFERENCES skins_library (uuid) ON DELETE CASCADE);
CREATE TABLE discord (userid bigint NOT NULL PRIMARY KEY, avatar_cache varchar(256) NOT NULL, name_gb varchar(256) NOT NULL,
  conn_id int, mail varchar(256), expire bigint);
SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO');
INSERT INTO permissions_groups (id, name, level, is_default) VALUES (0, 'Guest', 0, 1), (1, 'User', 1, 0), (2, 'Premium', 2, 0),
  (3, 'Moderator', 3, 0), (4, 'Admin', 4, 0), (5, 'Owner', 5, 0);
`;
