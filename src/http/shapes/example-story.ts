// The one story every example of the API tells (player Steve, user id 7, one skin, one cape), so that the examples
// of different records refer to each other consistently in the OpenAPI document.
export const BASE = 'http://localhost:8080';
export const PLAYER_UUID = '3f1d2c4b-5a69-4e7d-8c2b-1a0f9e8d7c6b';
export const PLAYER_ID = 7;
export const SKIN_UUID = 'c2a5e0f4-7b1d-4c38-9e6a-2d4f8b1c0e97';
export const CAPE_UUID = '8e4b1f2a-3c5d-4e6f-a7b8-9c0d1e2f3a4b';
export const SKIN_DIGEST = '5b1f0c2e8d7a4f3b9e6c1a0d2f4b8e7c3a9d5f1b0e2c4a6d8f0b1c3e5a7d9f2b';
export const CAPE_DIGEST = 'a9e3c1f5b7d2e4a6c8f0b2d4e6a8c0f2b4d6e8a0c2f4b6d8e0a2c4f6b8d0e2a4';
